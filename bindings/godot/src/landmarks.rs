//! Landmark tables (the heuristic that sharpens path searches' estimates) built at load
//! time, for a mesh built or loaded whole and for a world of tiles.

use navstar::NavMesh;

use crate::navigator::{FindError, Navigator};

impl Navigator {
    /// Builds the landmark tables now rather than on the first path search that would use
    /// them; true when the mesh has them after the call.
    ///
    /// For a mesh built or loaded whole: its table (`NavMesh::prepare_landmarks`; none
    /// with off-mesh links). For a world of tiles (with links, only the exact mode,
    /// which takes no links, gets one): `World::prepare_landmarks`, which
    /// builds tables for the world as it is and publishes a snapshot with them; this
    /// object's query moves onto that snapshot, as after any tile change (the last path
    /// is forgotten). A world never builds tables by itself. Its later snapshots keep
    /// them through `remove_tile` and `add_obstacle` (the changed tiles just get no
    /// bound from them), through `add_tile`, `replace_tile`, `move_obstacle` and
    /// `remove_obstacle` when these bring back ground of the build (a tile added back or
    /// replaced by an equal mesh, an obstacle added later moved or removed), and through
    /// ground they never saw, which caps every bound towards a goal at the goal's
    /// distance to the tiles holding it (when the tiles left without bounds hold more than a tenth of the world, or more
    /// than 64 tiles hold new ground, they are dropped: call this
    /// again then). Exact paths are the same with and without tables. Not safe to call
    /// while another thread uses this object (as every `&mut self` method).
    ///
    /// # Errors
    /// [`FindError::NoMesh`] without a mesh or world, kept for [`Navigator::last_error`].
    pub fn prepare_landmarks(&mut self) -> Result<bool, FindError> {
        if self.world.is_some() {
            // change_world only clears the error here: the world exists and the change
            // cannot fail.
            return self
                .change_world(|world| Ok(world.prepare_landmarks()))
                .map_err(FindError::Mesh);
        }
        self.on_mesh(|mesh| Ok(mesh.prepare_landmarks()))
    }

    /// The bytes of the landmark tables path searches on the current mesh can use (for
    /// a world, the part of its tables its current snapshot kept); 0 without a mesh or
    /// tables.
    pub fn landmark_bytes(&self) -> i64 {
        i64::try_from(self.mesh().map_or(0, NavMesh::landmark_bytes)).unwrap_or(i64::MAX)
    }
}

#[cfg(test)]
#[path = "landmarks_tests.rs"]
mod tests;
