//! The methods of `NavstarMesh` for moving agents: a move along the surface, the
//! distance to the nearest wall, seeded random points, the time-sliced path search and
//! the corridor made from the last path. Each is a thin adapter over [`crate::agents`]
//! or [`crate::follow`]; errors are kept for `get_last_error()`, and mistakes in the
//! calling script (no mesh, a bad argument or property) are also printed.

use godot::prelude::*;

use crate::class_queries::or;
use crate::corridor_class::NavstarCorridor;
use crate::godot_io::{put, vector};
use crate::{NavstarMesh, array3, complain, path_or_empty};

#[godot_api(secondary)]
impl NavstarMesh {
    /// Moves from `from` (first moved onto the nearest admitted polygon within
    /// `max_snap_distance`) towards `to` along the surface, sliding along walls and
    /// refused polygons, for an agent moved a little every frame. Returns `{position,
    /// polygon, walls, polygons}`: where it stopped, its polygon, how many walls it met
    /// and the polygons walked through (`PackedInt64Array`, start first); `{}` on error.
    #[func]
    fn move_along_surface(&mut self, from: Vector3, to: Vector3) -> VarDictionary {
        let moved =
            self.with_settings(|nav, s| nav.move_along_surface(array3(from), array3(to), s));
        let mut d = VarDictionary::new();
        if let Some(m) = or(moved.map(Some), None) {
            put(&mut d, "position", vector(m.surface.point));
            put(&mut d, "polygon", i64::from(m.surface.polygon));
            put(&mut d, "walls", i64::from(m.surface.walls));
            put(
                &mut d,
                "polygons",
                PackedInt64Array::from(m.polygons.as_slice()),
            );
        }
        d
    }

    /// The nearest wall within `max_radius` of `point` (moved onto the mesh first):
    /// `{distance, position, normal, polygon}` (ground distance, the wall's nearest
    /// point, its ground-plane normal into the walkable side, the polygon whose edge it
    /// is); `{}` when no wall is that near or on error (see `get_last_error()`).
    #[func]
    fn get_distance_to_wall(&mut self, point: Vector3, max_radius: f32) -> VarDictionary {
        let wall = self.with_settings(|nav, s| nav.distance_to_wall(array3(point), max_radius, s));
        let mut d = VarDictionary::new();
        if let Some(w) = or(wall, None) {
            put(&mut d, "distance", w.distance);
            put(&mut d, "position", vector(w.point));
            put(&mut d, "normal", vector(w.normal));
            put(&mut d, "polygon", i64::from(w.polygon));
        }
        d
    }

    /// A random point of the admitted polygons, uniform by area: `{position, polygon}`,
    /// `{}` on error. The same `seed` gives the same point (pass `randi()` for a new one).
    #[func]
    fn get_random_point(&mut self, seed: i64) -> VarDictionary {
        let p = self.with_settings(|nav, s| nav.random_point(seed, s));
        random_dictionary(or(p.map(Some), None))
    }

    /// A random point reachable from `point` in the admitted polygons within
    /// `max_distance` of it (the point may lie a little outside the circle, up to the
    /// size of the polygons at its rim): `{position, polygon}`, `{}` on error.
    #[func]
    fn get_random_point_around(
        &mut self,
        point: Vector3,
        max_distance: f32,
        seed: i64,
    ) -> VarDictionary {
        let p = self
            .with_settings(|nav, s| nav.random_point_around(array3(point), max_distance, seed, s));
        random_dictionary(or(p.map(Some), None))
    }

    /// Begins a time-sliced path search from `from` to `to` with the current properties;
    /// continue with `advance_path`, end with `finish_path`. False on error (an end off
    /// the mesh...: see `get_last_error()`).
    #[func]
    fn begin_path(&mut self, from: Vector3, to: Vector3) -> bool {
        let begun = self.with_settings(|nav, s| nav.begin_path(array3(from), array3(to), s));
        or(begun.map(|_| true), false)
    }

    /// Searches on for at most `max_expansions` polygon expansions (a frame's budget):
    /// 0 while the search goes on, 1 once `finish_path` has the answer, -1 on error.
    #[func]
    fn advance_path(&mut self, max_expansions: i64) -> i64 {
        let progress = self.nav.advance_path(max_expansions);
        or(progress.map(|p| crate::agents::slice_state(p.status)), -1)
    }

    /// Ends the time-sliced search and returns its path: `find_path`'s answer once
    /// `advance_path` returned 1, the best partial path so far before. The path details
    /// (`get_last_path_*`) describe it. Empty on error.
    #[func]
    fn finish_path(&mut self) -> PackedVector3Array {
        path_or_empty(self.nav.finish_path()).collect()
    }

    /// Cancels the time-sliced search in progress; whether there was one.
    #[func]
    fn cancel_path(&mut self) -> bool {
        self.nav.cancel_path()
    }

    /// A `NavstarCorridor` that follows the last path (`find_path`, `find_nearest_target`
    /// or `finish_path`) from its first corner to its last, with the current filter and
    /// area properties; `null` on error (no path, or one through an off-mesh link).
    #[func]
    fn create_corridor(&mut self) -> Option<Gd<NavstarCorridor>> {
        let made = self.with_settings(|nav, s| nav.corridor_from_last_path(s));
        match made {
            Ok(follower) => Some(NavstarCorridor::wrap(follower)),
            Err(e) => {
                complain(&e);
                None
            }
        }
    }
}

fn random_dictionary(point: Option<navstar::RandomPoint>) -> VarDictionary {
    let mut d = VarDictionary::new();
    if let Some(p) = point {
        put(&mut d, "position", vector(p.point));
        put(&mut d, "polygon", i64::from(p.polygon));
    }
    d
}
