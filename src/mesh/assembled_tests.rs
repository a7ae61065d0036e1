//! A mesh assembled from two hand-made tiles ([`MeshData::from_tiles`]) whose seam slots
//! are filled in by hand: ids in the second tile are above 2^31, and every query walks
//! across the seam as it would across an edge of one tile.

use std::sync::Arc;

use glam::Vec3;

use super::{
    ElementTables, Links, MeshData, NO_NEIGHBOUR, NO_TWIN, NavMesh, TileInfo, Tiled, next_in,
};
use crate::sync::{AtomicU32, AtomicU64};
use crate::{MeshOptions, PathMode, PathOptions, PathStatus, Query, QueryError};

const LOCAL_BITS: u32 = 31;

/// The tables of one tile, ids made global (`base | local`), before they become chunks.
struct Part {
    vertices: Vec<Vec3>,
    ground: Vec<glam::Vec2>,
    poly_start: Vec<u32>,
    corners: Vec<u32>,
    neighbours: Vec<u32>,
    local_island: Vec<u32>,
    portals: Vec<[u32; 2]>,
    twin: Vec<u32>,
    wall_vertex: Vec<bool>,
    dead_end: Vec<bool>,
    areas: Vec<u8>,
    flags: Vec<u32>,
    info: TileInfo,
}

/// A tile built as a plain mesh (flat ground, y up), its ids moved to tile slot `tile`.
fn part(tile: u32, points: &[(f32, f32)], indices: &[u32], sizes: &[u32]) -> Part {
    let vertices: Vec<Vec3> = points.iter().map(|&(x, z)| Vec3::new(x, 0.0, z)).collect();
    let mesh = NavMesh::from_polygons(&vertices, indices, sizes, &MeshOptions::default()).unwrap();
    let m = mesh.data();
    let base = tile << LOCAL_BITS;
    let id = |x: &u32| base | x;
    let link = |x: &u32, none: u32| if *x == none { none } else { base | x };
    let own = &m.tiles[0];
    Part {
        vertices: m.vertices.as_single().to_vec(),
        ground: m.ground.as_single().to_vec(),
        poly_start: m.poly_start.as_single().iter().map(id).collect(),
        corners: m.corners.as_single().iter().map(id).collect(),
        neighbours: m
            .neighbours
            .as_single()
            .iter()
            .map(|n| link(n, NO_NEIGHBOUR))
            .collect(),
        local_island: m.local_island.as_single().to_vec(),
        portals: m
            .portals
            .as_single()
            .iter()
            .map(|p| p.map(|v| base | v))
            .collect(),
        twin: m
            .twin
            .as_single()
            .iter()
            .map(|t| link(t, NO_TWIN))
            .collect(),
        wall_vertex: m.wall_vertex.as_single().to_vec(),
        dead_end: m.dead_end.as_single().to_vec(),
        areas: m.areas.as_single().to_vec(),
        flags: (0..m.polygon_count()).map(|p| m.flags_of(p)).collect(),
        info: TileInfo {
            bounds: own.bounds,
            index: Arc::clone(&own.index),
            polygon_count: own.polygon_count,
            vertex_count: own.vertex_count,
            slot_count: own.slot_count,
            generation: 1,
            // Every tile here is one island, and the seam joins them: island 0.
            island_map: vec![0; m.island_count as usize].into(),
            stamps: Arc::default(),
        },
    }
}

impl Part {
    /// The corner slots of local polygon `p` (global ids).
    fn range(&self, p: usize) -> std::ops::Range<usize> {
        self.poly_start[p] as usize..self.poly_start[p + 1] as usize
    }

    /// The local polygon and the global slot of the wall edge whose ends both lie on
    /// the line x = `x`.
    fn wall_on(&self, x: f32) -> (usize, usize) {
        let base = self.poly_start[0] as usize;
        let vertex =
            |slot: usize| self.vertices[(self.corners[slot - base] & 0x7fff_ffff) as usize];
        for p in 0..self.poly_start.len() - 1 {
            let range = self.range(p);
            for slot in range.clone() {
                let next = next_in(range.clone(), slot);
                if self.neighbours[slot - base] == NO_NEIGHBOUR
                    && vertex(slot).x == x
                    && vertex(next).x == x
                {
                    return (p, slot);
                }
            }
        }
        panic!("no wall on x = {x}");
    }

    /// Joins seam slot `slot` of local polygon `p` to `other`'s polygon and slot.
    fn join(&mut self, p: usize, slot: usize, polygon: u32, other_slot: usize) {
        let base = self.poly_start[0] as usize;
        self.neighbours[slot - base] = polygon;
        self.twin[slot - base] = other_slot as u32;
        let mut others: Vec<u32> = self.neighbours
            [self.range(p).start - base..self.range(p).end - base]
            .iter()
            .copied()
            .filter(|&n| n != NO_NEIGHBOUR)
            .collect();
        others.dedup();
        self.dead_end[p] = others.len() <= 1;
    }
}

fn tiled<T>(a: Vec<T>, b: Vec<T>) -> Tiled<T> {
    Tiled::from_chunks(vec![Arc::from(a), Arc::from(b)], LOCAL_BITS)
}

/// Tile 0: an L of three unit squares, (0..1, 0..1), (0..1, 1..2), (1..2, 1..2). Tile 1,
/// two squares (2..3, 1..2) and (2..3, 0..1). They meet on x = 2 between z = 1 and 2; a
/// path from (0.5, 0.5) to (2.5, 0.5) bends round (1, 1) and (2, 1).
fn two_tiles() -> NavMesh {
    let mut a = part(
        0,
        &[
            (0.0, 0.0),
            (1.0, 0.0),
            (0.0, 1.0),
            (1.0, 1.0),
            (0.0, 2.0),
            (1.0, 2.0),
            (2.0, 1.0),
            (2.0, 2.0),
        ],
        &[0, 1, 3, 2, /**/ 2, 3, 5, 4, /**/ 3, 6, 7, 5],
        &[4, 4, 4],
    );
    let mut b = part(
        1,
        &[
            (2.0, 1.0),
            (3.0, 1.0),
            (2.0, 2.0),
            (3.0, 2.0),
            (2.0, 0.0),
            (3.0, 0.0),
        ],
        &[0, 1, 3, 2, /**/ 4, 5, 1, 0],
        &[4, 4],
    );
    let (pa, sa) = a.wall_on(2.0);
    let (pb, sb) = b.wall_on(2.0);
    let base_b = 1u32 << LOCAL_BITS;
    a.join(pa, sa, base_b | pb as u32, sb);
    b.join(pb, sb, pa as u32, sa);
    let flags = |f: Vec<u32>| f.into_iter().map(AtomicU32::new).collect::<Vec<_>>();
    let tables = ElementTables {
        vertices: tiled(a.vertices, b.vertices),
        ground: tiled(a.ground, b.ground),
        poly_start: tiled(a.poly_start, b.poly_start),
        corners: tiled(a.corners, b.corners),
        neighbours: tiled(a.neighbours, b.neighbours),
        local_island: tiled(a.local_island, b.local_island),
        portals: tiled(a.portals, b.portals),
        twin: tiled(a.twin, b.twin),
        wall_vertex: tiled(a.wall_vertex, b.wall_vertex),
        dead_end: tiled(a.dead_end, b.dead_end),
        areas: tiled(a.areas, b.areas),
        flags: tiled(flags(a.flags), flags(b.flags)),
    };
    let data = MeshData::from_tiles(
        crate::UpAxis::Y,
        LOCAL_BITS,
        tables,
        vec![a.info, b.info],
        1,
        Links::default(),
        Arc::new(AtomicU64::new(0)),
    );
    NavMesh {
        data: Arc::new(data),
    }
}

#[test]
fn ids_of_an_assembled_mesh() {
    let mesh = two_tiles();
    let b = 1u32 << LOCAL_BITS;
    assert_eq!(mesh.polygon_ids().collect::<Vec<_>>(), [0, 1, 2, b, b + 1]);
    assert_eq!((mesh.polygon_count(), mesh.vertex_count()), (5, 14));
    assert!(mesh.contains_polygon(b + 1));
    for missing in [3, b + 2, u32::MAX] {
        assert!(!mesh.contains_polygon(missing));
        assert!(matches!(
            mesh.set_polygon_flags(missing, 0),
            Err(QueryError::IndexOutOfRange { index, .. }) if index == missing
        ));
    }
    assert_eq!(
        (mesh.island_count(), mesh.island(0), mesh.island(b + 1)),
        (1, 0, 0)
    );
    assert_eq!(mesh.bounds().max, Vec3::new(3.0, 0.0, 2.0));
    let nearest = mesh
        .nearest_point(Vec3::new(2.6, 1.0, 0.4), 5.0, None)
        .unwrap();
    assert_eq!(
        (nearest.polygon, nearest.point),
        (b + 1, Vec3::new(2.6, 0.0, 0.4))
    );
    // The seam edge leads into the other tile, both ways.
    assert!(mesh.polygon_neighbours(2).any(|n| n == Some(b)));
    assert!(mesh.polygon_neighbours(b).any(|n| n == Some(2)));
}

#[test]
fn paths_cross_the_seam_in_both_modes() {
    let mesh = two_tiles();
    assert!(mesh.data().coarse().is_none());
    let (start, goal) = (Vec3::new(0.5, 0.0, 0.5), Vec3::new(2.5, 0.0, 0.5));
    let expected = [
        start,
        Vec3::new(1.0, 0.0, 1.0),
        Vec3::new(2.0, 0.0, 1.0),
        goal,
    ];
    let b = 1u32 << LOCAL_BITS;
    for mode in [PathMode::Funnel, PathMode::Optimal] {
        let mut query = Query::new(&mesh);
        let options = PathOptions::default().with_mode(mode);
        let path = query.find_path(start, goal, &options).unwrap();
        assert_eq!(path.status, PathStatus::Complete, "{mode:?}");
        assert_eq!(path.corners, expected, "{mode:?}");
        assert!(
            (path.length() - (1.0 + 2f32.sqrt())).abs() < 1e-5,
            "{mode:?}"
        );
        if mode == PathMode::Funnel {
            let corridor: Vec<u32> = query.corridor().collect();
            assert_eq!(corridor, [0, 1, 2, b, b + 1]);
        }
    }
    // Closing the seam's polygon in tile 1 leaves a partial path in tile 0.
    mesh.set_polygon_flags(b, 0).unwrap();
    assert_eq!(mesh.polygon_flags(b), 0);
    let mut query = Query::new(&mesh);
    let path = query
        .find_path(start, goal, &PathOptions::default())
        .unwrap();
    assert_eq!(path.status, PathStatus::Partial);
    assert_eq!(path.corners.last(), Some(&Vec3::new(2.0, 0.0, 1.0)));
}
