//! `NavstarCorridor`: one agent following a path, made by `NavstarMesh.create_corridor()`
//! (navstar's `PathCorridor`). Thin adapters over [`crate::follow::Follower`].

use godot::prelude::*;

use crate::follow::Follower;
use crate::godot_io::vector;
use crate::navigator::FindError;

/// A corridor that follows one agent along a path: the polygons from the agent's
/// position to its target, trimmed as the agent moves and extended as the target moves,
/// with the next corners to steer for. Make it with `NavstarMesh.create_corridor()`
/// after a path; each frame call `move_position()` with where the agent wants to be,
/// steer for `get_corners(1)[0]`, check `is_valid()` and `repair()` when doors close.
/// It keeps the filter and area properties of the mesh object when it was made, and
/// the mesh as it was then. Errors: `{}`/`false`/-1, with `get_last_error()` saying why.
/// Threads: one owner, the main thread.
#[derive(GodotClass)]
#[class(base = RefCounted, init)]
pub struct NavstarCorridor {
    follower: Option<Follower>,
    last_error: String,
    last_flags: Vec<i32>,
    base: Base<RefCounted>,
}

impl NavstarCorridor {
    /// A new object holding `follower`.
    pub(crate) fn wrap(follower: Follower) -> Gd<NavstarCorridor> {
        Gd::from_init_fn(|base| NavstarCorridor {
            follower: Some(follower),
            last_error: String::new(),
            last_flags: Vec::new(),
            base,
        })
    }

    /// Runs `f` on the follower, keeping (and printing script mistakes of) its error.
    fn with<T>(&mut self, fallback: T, f: impl FnOnce(&mut Follower) -> Result<T, FindError>) -> T {
        let outcome = match self.follower.as_mut() {
            Some(follower) => f(follower),
            None => Err(FindError::Setting(
                "no corridor: make one with NavstarMesh.create_corridor()".to_owned(),
            )),
        };
        match outcome {
            Ok(value) => {
                self.last_error.clear();
                value
            }
            Err(e) => {
                if !matches!(e, FindError::Query(_)) {
                    godot_error!("NavstarCorridor: {e}");
                }
                self.last_error = e.to_string();
                fallback
            }
        }
    }
}

#[godot_api]
impl NavstarCorridor {
    /// Moves the agent towards `position` along the surface (sliding along walls) and
    /// trims the corridor; whether the agent is still on it. False on error too.
    #[func]
    fn move_position(&mut self, position: Vector3) -> bool {
        self.with(false, |f| f.move_position(position.to_array()))
    }

    /// Moves the target towards `target` along the surface, extending or trimming the
    /// corridor's end; whether its polygon was already on the corridor.
    #[func]
    fn move_target(&mut self, target: Vector3) -> bool {
        self.with(false, |f| f.move_target(target.to_array()))
    }

    /// The next corners (at most `max`) of the way to the target, the agent's position
    /// not included; the target last when it is among them. Their flags:
    /// `get_last_corner_flags()`. Empty when the agent stands on the target, or on error.
    #[func]
    fn get_corners(&mut self, max: i64) -> PackedVector3Array {
        let (corners, flags) = self.with(Default::default(), |f| f.corners(max));
        self.last_flags = flags;
        corners.into_iter().map(vector).collect()
    }

    /// The flags of the corners `get_corners` returned last: 2 the target, 16 an area
    /// change (with the mesh's `split_at_area_changes`).
    #[func]
    fn get_last_corner_flags(&self) -> PackedInt32Array {
        PackedInt32Array::from(self.last_flags.as_slice())
    }

    /// Whether the first `look_ahead` polygons are all still admitted (no door on the
    /// way closed since). False on error too.
    #[func]
    fn is_valid(&mut self, look_ahead: i64) -> bool {
        self.with(false, |f| f.is_valid(look_ahead))
    }

    /// Replans the corridor after its first refused polygon: 0 nothing to do, 1
    /// repaired, 2 repaired but the target is cut off (moved to the nearest reachable
    /// point), -1 on error (the agent's own polygon is refused: plan a new path).
    #[func]
    fn repair(&mut self) -> i64 {
        self.with(-1, Follower::repair)
    }

    /// Shortens the corridor when the agent sees `next` (a point further on) straight
    /// ahead; whether it changed.
    #[func]
    fn optimize_visibility(&mut self, next: Vector3) -> bool {
        self.with(false, |f| f.optimize_visibility(next.to_array()))
    }

    /// The agent's position (on the corridor's first polygon).
    #[func]
    fn get_position(&mut self) -> Vector3 {
        self.with(Vector3::ZERO, |f| Ok(vector(f.position())))
    }

    /// The target (on the corridor's last polygon).
    #[func]
    fn get_target(&mut self) -> Vector3 {
        self.with(Vector3::ZERO, |f| Ok(vector(f.target())))
    }

    /// The polygons from the agent to the target.
    #[func]
    fn get_polygons(&mut self) -> PackedInt64Array {
        let polygons = self.with(Vec::new(), |f| Ok(f.polygons()));
        PackedInt64Array::from(polygons.as_slice())
    }

    /// Why the last call failed, or `""` after a success.
    #[func]
    fn get_last_error(&self) -> GString {
        GString::from(self.last_error.as_str())
    }
}
