//! The vertices and polygons of a [`NavMesh`] read by id: positions, corner lists,
//! neighbours and areas (read-only; safe from any thread).

use glam::Vec3;

use super::{NO_NEIGHBOUR, NavMesh};

impl NavMesh {
    /// All vertex positions, in world coordinates, indexed by vertex id. A snapshot of a
    /// world of tiles has no such array (its vertex ids name their tile): it gives an
    /// empty slice; use [`NavMesh::vertex`] or [`NavMesh::tile_vertices`].
    #[must_use]
    pub fn vertices(&self) -> &[Vec3] {
        if self.data.local_bits == 32 {
            self.data.vertices.chunk(0)
        } else {
            &[]
        }
    }

    /// The vertices of tile slot `slot` of a snapshot of a world, in world coordinates:
    /// vertex id `slot << local_bits | i` is element `i` (for a mesh built on its own,
    /// slot 0 holds every vertex). Empty for an empty slot or one beyond the last tile.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, World, WorldOptions};
    ///
    /// let square = |x: f32| {
    ///     let v = [Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1.0, 0.0, 0.0), Vec3::new(x + 1.0, 0.0, 1.0), Vec3::new(x, 0.0, 1.0)];
    ///     NavMesh::from_polygons(&v, &[0, 3, 2, 1], &[4], &MeshOptions::default())
    /// };
    /// let world = World::new(&WorldOptions::default())?;
    /// world.add_tile(&square(0.0)?)?;
    /// world.add_tile(&square(5.0)?)?;
    /// let snapshot = world.snapshot();
    /// assert!(snapshot.vertices().is_empty());
    /// assert_eq!(snapshot.tile_vertices(1)[1], Vec3::new(6.0, 0.0, 0.0));
    /// assert!(snapshot.tile_vertices(7).is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn tile_vertices(&self, slot: u32) -> &[Vec3] {
        let vertices = &self.data.vertices;
        if (slot as usize) < vertices.chunk_count() {
            vertices.chunk(slot as usize)
        } else {
            &[]
        }
    }

    /// The world position of vertex `vertex`, an id from [`NavMesh::polygon_vertices`]
    /// (for a mesh built from arrays, `vertices()[vertex]`; for a snapshot of a world of
    /// tiles, any tile's vertex).
    ///
    /// # Panics
    /// If `vertex` is not a vertex id of the mesh.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh};
    ///
    /// let square = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z];
    /// let mesh = NavMesh::from_polygons(&square, &[0, 1, 2, 3], &[4], &MeshOptions::default())?;
    /// let corners: Vec<Vec3> = mesh.polygon_vertices(0).iter().map(|&v| mesh.vertex(v)).collect();
    /// assert_eq!(corners.len(), 4);
    /// assert!(corners.contains(&Vec3::X));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn vertex(&self, vertex: u32) -> Vec3 {
        self.data.vertices[vertex as usize]
    }

    /// The place of vertex id `vertex` (from [`NavMesh::polygon_vertices`]) in the
    /// numbering `0..vertex_count()` that runs through the tiles' vertices tile after
    /// tile, as [`NavMesh::tile_vertices`] lists them: `vertex` itself for a mesh built
    /// from arrays. Per-vertex arrays (such as [`NavMesh::interpolate`]'s values) are
    /// indexed by it. Costs a sum over the tile slots before the vertex's for a snapshot
    /// of a world.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, World, WorldOptions};
    ///
    /// let square = |x: f32| {
    ///     let v = [Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1.0, 0.0, 0.0), Vec3::new(x + 1.0, 0.0, 1.0), Vec3::new(x, 0.0, 1.0)];
    ///     NavMesh::from_polygons(&v, &[0, 3, 2, 1], &[4], &MeshOptions::default())
    /// };
    /// assert_eq!(square(0.0)?.vertex_index(2), 2);
    /// let world = World::new(&WorldOptions::default())?;
    /// world.add_tile(&square(0.0)?)?;
    /// world.add_tile(&square(5.0)?)?;
    /// let snapshot = world.snapshot();
    /// let second: Vec<u32> = snapshot.polygon_ids().collect();
    /// let corner = snapshot.polygon_vertices(second[1])[0];
    /// // The second tile's vertices come after the first tile's four.
    /// assert!((4..8).contains(&snapshot.vertex_index(corner)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn vertex_index(&self, vertex: u32) -> u32 {
        self.data.vertex_index(vertex) as u32
    }

    /// The corner vertex indices of `polygon`, counter-clockwise in the ground plane.
    ///
    /// # Panics
    /// If `polygon` is not a polygon of the mesh (`polygon >= polygon_count()` for a mesh
    /// built from arrays).
    #[must_use]
    pub fn polygon_vertices(&self, polygon: u32) -> &[u32] {
        self.expect_polygon(polygon);
        &self.data.corners[self.data.corner_range(polygon)]
    }

    /// For each edge of `polygon` in order (edge `i` runs from corner `i` to corner
    /// `i + 1`, wrapping round), the polygon on the other side, or `None` for a wall.
    ///
    /// # Panics
    /// If `polygon` is not a polygon of the mesh (`polygon >= polygon_count()` for a mesh
    /// built from arrays).
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(3.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(3.0, 1.0)];
    /// # let indices = [0, 1, 5, 4, /**/ 1, 2, 6, 5, /**/ 2, 3, 7, 6];
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// // `mesh`: three unit squares in a row along x, polygons 0, 1, 2 (y up).
    /// let walls = mesh.polygon_neighbours(1).filter(|n| n.is_none()).count();
    /// let mut across: Vec<u32> = mesh.polygon_neighbours(1).flatten().collect();
    /// across.sort();
    /// assert_eq!((walls, across), (2, vec![0, 2]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn polygon_neighbours(
        &self,
        polygon: u32,
    ) -> impl ExactSizeIterator<Item = Option<u32>> + Clone + '_ {
        self.expect_polygon(polygon);
        self.data.neighbours[self.data.corner_range(polygon)]
            .iter()
            .map(|&n| (n != NO_NEIGHBOUR).then_some(n))
    }

    /// The area id of `polygon`, fixed at build.
    ///
    /// # Panics
    /// If `polygon` is not a polygon of the mesh (`polygon >= polygon_count()` for a mesh
    /// built from arrays).
    #[must_use]
    pub fn polygon_area(&self, polygon: u32) -> u8 {
        self.expect_polygon(polygon);
        self.data.areas[polygon as usize]
    }
}
