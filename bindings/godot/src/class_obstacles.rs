//! The obstacle methods of `NavstarMesh`, shaped like Godot's `NavigationObstacle3D`
//! (position, vertices relative to it or a radius, height). Thin adapters over
//! [`crate::obstacles`]; errors are printed and kept for `get_last_error()`.

use godot::prelude::*;

use crate::obstacles::ObstacleShape;
use crate::{NavstarMesh, array3, positions, report};

/// The shape of an obstacle from a script's arguments.
fn shape(
    position: Vector3,
    vertices: &PackedVector3Array,
    radius: f32,
    height: f32,
) -> ObstacleShape {
    ObstacleShape {
        position: array3(position),
        vertices: positions(vertices).collect(),
        radius,
        height,
    }
}

#[godot_api(secondary)]
impl NavstarMesh {
    /// Carves an obstacle into the mesh and returns its id (-1 on error): its footprint
    /// is `vertices` (relative to `position`, convex; their y is ignored) or, when
    /// `vertices` is empty, a circle of `radius` round `position`; it cuts the polygons
    /// from height `position.y` to `position.y + height` (`height` 0: every height),
    /// grown by the mesh's baked agent radius. Paths go round it from the next query on.
    /// A mesh built or loaded whole becomes a world of one tile.
    #[func]
    fn add_obstacle(
        &mut self,
        position: Vector3,
        vertices: PackedVector3Array,
        radius: f32,
        height: f32,
    ) -> i64 {
        let added = self
            .nav
            .add_obstacle(&shape(position, &vertices, radius, height));
        added.unwrap_or_else(|message| {
            godot_error!("NavstarMesh: {message}");
            -1
        })
    }

    /// Moves obstacle `obstacle` to a new shape (arguments as `add_obstacle`); `false` on
    /// error (an unknown id, a bad shape).
    #[func]
    fn move_obstacle(
        &mut self,
        obstacle: i64,
        position: Vector3,
        vertices: PackedVector3Array,
        radius: f32,
        height: f32,
    ) -> bool {
        let shape = shape(position, &vertices, radius, height);
        report(self.nav.move_obstacle(obstacle, &shape))
    }

    /// Removes obstacle `obstacle`: the polygons it cut come back as they were.
    #[func]
    fn remove_obstacle(&mut self, obstacle: i64) -> bool {
        report(self.nav.remove_obstacle(obstacle))
    }

    /// The number of obstacles carved into the mesh.
    #[func]
    fn get_obstacle_count(&self) -> i64 {
        self.nav.obstacle_count()
    }
}
