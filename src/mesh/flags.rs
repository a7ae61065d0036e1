//! A mesh's run-time flags: of its polygons and of its off-mesh links, changed while
//! other threads query it (each change bumps the flag generation that queries watch).

use std::sync::atomic::Ordering;

use super::NavMesh;
use crate::error::QueryError;

impl NavMesh {
    /// The current flags of `polygon`.
    ///
    /// # Panics
    /// If `polygon` is not a polygon of the mesh (`polygon >= polygon_count()` for a mesh
    /// built from arrays).
    #[must_use]
    pub fn polygon_flags(&self, polygon: u32) -> u32 {
        self.expect_polygon(polygon);
        self.data.flags[polygon as usize].load(Ordering::Relaxed)
    }

    /// Changes the flags of `polygon` (a door closes: clear the bit your filters
    /// include). Safe while other threads query the mesh: no lock is taken, and each
    /// query sees the old or the new flags of every polygon, never a mix of bits. A change
    /// is seen by all clones of this mesh. Returns the previous flags.
    ///
    /// # Errors
    /// [`QueryError::IndexOutOfRange`] when `polygon >= polygon_count()`.
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(3.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(3.0, 1.0)];
    /// # let indices = [0, 1, 5, 4, /**/ 1, 2, 6, 5, /**/ 2, 3, 7, 6];
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// // `mesh`: three unit squares in a row along x, polygons 0, 1, 2 (y up).
    /// use navstar::{PathOptions, PathStatus, Query};
    ///
    /// let (start, goal) = (Vec3::new(0.5, 0.0, 0.5), Vec3::new(2.5, 0.0, 0.5));
    /// let mut query = Query::new(&mesh);
    /// // The middle square is a door; close it (the default filter refuses flags 0).
    /// assert_eq!(mesh.set_polygon_flags(1, 0)?, navstar::DEFAULT_FLAGS);
    /// let path = query.find_path(start, goal, &PathOptions::default())?;
    /// assert_eq!(path.status, PathStatus::Partial);
    /// assert_eq!(path.corners.last(), Some(&Vec3::new(1.0, 0.0, 0.5)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_polygon_flags(&self, polygon: u32, flags: u32) -> Result<u32, QueryError> {
        let slot = self.data.flag_cell(polygon)?;
        let previous = slot.swap(flags, Ordering::Relaxed);
        self.data.flags_generation.fetch_add(1, Ordering::Release);
        Ok(previous)
    }

    /// Number of off-mesh links.
    #[must_use]
    pub fn link_count(&self) -> u32 {
        self.data.links.count()
    }

    /// The current flags of off-mesh link `link`.
    ///
    /// # Panics
    /// If `link >= link_count()`.
    #[must_use]
    pub fn link_flags(&self, link: u32) -> u32 {
        self.data.links.flags(link)
    }

    /// Changes the flags of off-mesh link `link`, with the same guarantees as
    /// [`NavMesh::set_polygon_flags`]. Returns the previous flags.
    ///
    /// # Errors
    /// [`QueryError::IndexOutOfRange`] when `link >= link_count()`.
    pub fn set_link_flags(&self, link: u32, flags: u32) -> Result<u32, QueryError> {
        let count = self.link_count();
        let slot = self
            .data
            .links
            .flags
            .get(link as usize)
            .ok_or(QueryError::IndexOutOfRange {
                what: "link",
                index: link,
                count,
            })?;
        let previous = slot.swap(flags, Ordering::Relaxed);
        self.data.flags_generation.fetch_add(1, Ordering::Release);
        Ok(previous)
    }
}
