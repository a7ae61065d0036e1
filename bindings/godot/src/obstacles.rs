//! Dynamic obstacles, in the shape of Godot's `NavigationObstacle3D`: a position, an
//! optional outline of vertices relative to it (else a circle of a radius round it) and a
//! height. Each is carved into the mesh at run time (navstar's `World::add_obstacle`):
//! the polygons it overlaps lose its footprint, and get it back when it moves away or is
//! removed. A mesh built or loaded whole becomes a world of one tile at the first obstacle,
//! so obstacles work on every mesh. An obstacle is named by a non-negative integer id.

use navstar::glam::Vec2;
use navstar::{Obstacle, ObstacleId, World, WorldOptions};

use crate::navigator::Navigator;

/// An obstacle as a script gives it (Y up, as Godot's 3D nodes).
#[derive(Debug, Clone, PartialEq)]
pub struct ObstacleShape {
    /// Where it stands: its footprint is placed round `x, z`, and it rises from `y`.
    pub position: [f32; 3],
    /// The footprint's corners relative to `position` (their `y` is ignored), convex, in
    /// either winding; empty for a circle of `radius`.
    pub vertices: Vec<[f32; 3]>,
    /// The radius of the circle drawn when `vertices` is empty (ignored otherwise).
    pub radius: f32,
    /// How high it rises above `position.y`: polygons at heights from `position.y` to
    /// `position.y + height` are cut. 0 cuts every height (a flat level).
    pub height: f32,
}

impl ObstacleShape {
    /// navstar's obstacle for this shape.
    ///
    /// # Errors
    /// A height that is negative or not finite, or navstar's `InvalidObstacle` (a bad
    /// radius, a footprint that is not convex or has too few corners, naming the corner).
    pub fn to_obstacle(&self) -> Result<Obstacle, String> {
        let [x, y, z] = self.position;
        let footprint = if self.vertices.is_empty() {
            Obstacle::circle(Vec2::new(x, z), self.radius)
        } else {
            let corners: Vec<Vec2> = self
                .vertices
                .iter()
                .map(|v| Vec2::new(x + v[0], z + v[2]))
                .collect();
            Obstacle::new(&corners)
        }
        .map_err(|e| e.to_string())?;
        if !(self.height.is_finite() && self.height >= 0.0) {
            return Err(format!(
                "obstacle height {} must be finite and >= 0 (0: every height)",
                self.height
            ));
        }
        if self.height == 0.0 {
            return Ok(footprint);
        }
        footprint
            .with_height_range(y, y + self.height)
            .map_err(|e| e.to_string())
    }
}

/// An obstacle id as a Godot integer.
fn obstacle_id(id: ObstacleId) -> Result<i64, String> {
    i64::try_from(id.0).map_err(|_| format!("obstacle id {} does not fit an int", id.0))
}

/// A Godot integer as an obstacle id.
fn obstacle_ref(id: i64) -> Result<ObstacleId, String> {
    u64::try_from(id)
        .map(ObstacleId)
        .map_err(|_| format!("obstacle {id} is not an obstacle id (ids are never negative)"))
}

impl Navigator {
    /// Carves `shape` into the mesh and returns its id.
    ///
    /// # Errors
    /// No mesh yet, a bad shape (see [`ObstacleShape::to_obstacle`]), or the world's error;
    /// the mesh is then unchanged.
    pub fn add_obstacle(&mut self, shape: &ObstacleShape) -> Result<i64, String> {
        let obstacle = shape.to_obstacle();
        self.change_obstacles(|world| {
            let id = world.add_obstacle(&obstacle?).map_err(|e| e.to_string())?;
            obstacle_id(id)
        })
    }

    /// Moves obstacle `id` to `shape` (its old footprint is given back, the new one cut).
    ///
    /// # Errors
    /// An unknown or negative id, a bad shape, or the world's error.
    pub fn move_obstacle(&mut self, id: i64, shape: &ObstacleShape) -> Result<(), String> {
        let obstacle = shape.to_obstacle();
        self.change_obstacles(|world| {
            let id = obstacle_ref(id)?;
            world
                .move_obstacle(id, &obstacle?)
                .map_err(|e| e.to_string())
        })
    }

    /// Removes obstacle `id`: the polygons it cut come back as they were.
    ///
    /// # Errors
    /// An unknown or negative id.
    pub fn remove_obstacle(&mut self, id: i64) -> Result<(), String> {
        self.change_obstacles(|world| {
            world
                .remove_obstacle(obstacle_ref(id)?)
                .map_err(|e| e.to_string())
        })
    }

    /// The number of obstacles carved into the mesh.
    pub fn obstacle_count(&self) -> i64 {
        self.world
            .as_ref()
            .map_or(0, |w| i64::try_from(w.obstacle_count()).unwrap_or(i64::MAX))
    }

    /// Runs `change` on the world, first turning a mesh built or loaded whole into a
    /// world of that one tile (its queries answer as before).
    fn change_obstacles<T>(
        &mut self,
        change: impl FnOnce(&World) -> Result<T, String>,
    ) -> Result<T, String> {
        if self.world.is_none() {
            let Some(mesh) = self.mesh().cloned() else {
                let message = "no mesh: build, load or add a tile before obstacles".to_owned();
                self.last_error.clone_from(&message);
                return Err(message);
            };
            let world = World::new(&WorldOptions::default().with_up_axis(mesh.up_axis()))
                .and_then(|world| world.add_tile(&mesh).map(|_| world));
            match world {
                Ok(world) => self.world = Some(world),
                Err(e) => {
                    let message = format!("the mesh cannot take obstacles: {e}");
                    self.last_error.clone_from(&message);
                    return Err(message);
                }
            }
        }
        self.change_world(change)
    }
}

#[cfg(test)]
#[path = "obstacles_tests.rs"]
mod tests;
