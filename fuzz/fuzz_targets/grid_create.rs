//! Fuzzes `navstar_mesh_create_from_grid`: arbitrary grid sizes (capped to the cells
//! provided, NULL cells included), cell contents, cell sizes and origins (NaN,
//! infinities, huge, denormal, negative, zero) and options.
//!
//! Besides the status, message and `*out_mesh` rules, an accepted grid is checked
//! against an independent model: its polygons are at most the walkable cells, and for
//! well-scaled grids paths between cell centres are complete exactly when the cells are
//! 4-connected (cells touching at a corner only are not), never longer than the
//! 4-connected walk through cell centres, and valid by the general path checker.
#![no_main]

use std::collections::VecDeque;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use navstar::glam::Vec3;
use navstar::{NavMesh, PathOptions, PathStatus, Query, TileGrid, UpAxis};
use navstar_fuzz::{
    Coord, Expect, INVALID_ARGUMENT, MeshOpts, NULL_ARGUMENT, OK, c_grid_create, check_answer,
    mesh_status,
};

#[derive(Arbitrary, Debug)]
struct Input {
    width: u8,
    height: u8,
    cells: Vec<u8>,
    cells_null: bool,
    cell_size: Coord,
    origin: Option<[Coord; 3]>,
    options: MeshOpts,
    /// Pairs of walkable cells (by rank) to query between.
    queries: Vec<(u16, u16)>,
}

/// Steps of the shortest 4-connected walk from cell `from` to every cell (`u32::MAX`:
/// unreachable).
fn bfs(width: usize, height: usize, walkable: &[bool], from: usize) -> Vec<u32> {
    let mut dist = vec![u32::MAX; walkable.len()];
    let mut queue = VecDeque::from([from]);
    dist[from] = 0;
    while let Some(c) = queue.pop_front() {
        let (x, y) = (c % width, c / width);
        let next = [
            (x > 0).then(|| c - 1),
            (x + 1 < width).then(|| c + 1),
            (y > 0).then(|| c - width),
            (y + 1 < height).then(|| c + width),
        ];
        for n in next.into_iter().flatten() {
            if walkable[n] && dist[n] == u32::MAX {
                dist[n] = dist[c] + 1;
                queue.push_back(n);
            }
        }
    }
    dist
}

fuzz_target!(|input: Input| {
    let width = u32::from(input.width % 48);
    let mut height = u32::from(input.height % 48);
    // Keep the contract: never more cells than provided.
    if let Some(rows) = (input.cells.len() as u32).checked_div(width) {
        height = height.min(rows);
    }
    let count = (width * height) as usize;
    let cells = &input.cells[..count.min(input.cells.len())];
    let cell_size = input.cell_size.value();
    let origin = input.origin.map(|o| o.map(Coord::value));
    let options = input.options.to_c();
    let (status, mesh) = c_grid_create(
        (!input.cells_null).then_some(cells),
        width,
        height,
        cell_size,
        origin.as_ref(),
        options.as_ref(),
    );

    // The documented order: options, cells pointer, origin, then the mesher.
    let rust_options = match input.options.expected() {
        Expect::Accept(o) => o,
        Expect::Reject => {
            assert_eq!(status, INVALID_ARGUMENT);
            return;
        }
        // Newer option fields: only the general rules (checked in c_grid_create).
        Expect::Unknown(_) => return,
    };
    if input.cells_null && count > 0 {
        assert_eq!(status, NULL_ARGUMENT);
        return;
    }
    let origin = Vec3::from(origin.unwrap_or_default());
    if !origin.is_finite() {
        assert_eq!(status, INVALID_ARGUMENT);
        return;
    }
    let walkable: Vec<bool> = cells.iter().map(|&c| c != 0).collect();
    let grid = TileGrid {
        width,
        height,
        walkable: &walkable,
        cell_size,
        origin,
    };
    let rust = NavMesh::from_grid(&grid, &rust_options);
    let mesh = match (&rust, mesh) {
        (Ok(r), Some(c)) => {
            assert_eq!(status, OK);
            assert_eq!(c.polygon_count(), r.polygon_count());
            r.clone()
        }
        (Err(e), None) => {
            assert_eq!(status, mesh_status(e), "the Rust mesher said {e}");
            if walkable.iter().any(|&w| w)
                && cell_size.is_finite()
                && cell_size > 0.0
                && (0.01..=100.0).contains(&cell_size)
                && origin.abs().max_element() < 1e4
                && rust_options.weld_distance.is_finite()
                && rust_options.weld_distance >= 0.0
            {
                panic!("a well-scaled grid with walkable cells was rejected: {e}");
            }
            return;
        }
        (r, _) => panic!("status {status:?} but Rust gave {r:?}"),
    };
    assert!(cell_size.is_finite() && cell_size > 0.0);
    let walkable_cells: Vec<usize> = (0..count).filter(|&c| walkable[c]).collect();
    assert!(!walkable_cells.is_empty());
    assert!(mesh.polygon_count() as usize <= walkable_cells.len());

    // Only well-scaled grids are compared with the cell model: elsewhere f32 rounding of
    // the cell centres may move them across cell sides.
    let well_scaled = (0.01..=100.0).contains(&cell_size) && origin.abs().max_element() < 1e4;
    let centre = |c: usize| {
        let (u, v) = (
            (((c % width as usize) as f32) + 0.5) * cell_size,
            (((c / width as usize) as f32) + 0.5) * cell_size,
        );
        origin
            + match rust_options.up_axis {
                UpAxis::Y => Vec3::new(u, 0.0, v),
                UpAxis::Z => Vec3::new(u, v, 0.0),
            }
    };
    let mut query = Query::new(&mesh);
    let options = PathOptions::default();
    for &(a, b) in input.queries.iter().take(4) {
        let from = walkable_cells[usize::from(a) % walkable_cells.len()];
        let to = walkable_cells[usize::from(b) % walkable_cells.len()];
        let (start, goal) = (centre(from), centre(to));
        let answer = query
            .find_path_vec(start, goal, &options)
            .map(|path| (path.corners, path.status));
        check_answer(&mesh, start, goal, &options, &answer);
        if !well_scaled {
            continue;
        }
        let steps = bfs(width as usize, height as usize, &walkable, from)[to];
        let (corners, status) = answer.expect("a query between cell centres failed");
        assert_eq!(
            status == PathStatus::Complete,
            steps != u32::MAX,
            "cells {from} -> {to}: {status:?} but 4-connected: {}",
            steps != u32::MAX
        );
        if status == PathStatus::Complete {
            let length: f32 = corners.windows(2).map(|w| w[0].distance(w[1])).sum();
            let walk = steps as f32 * cell_size;
            assert!(
                length <= walk * (1.0 + 1e-4) + 1e-3 * cell_size,
                "cells {from} -> {to}: path {length} longer than the cell walk {walk}: {corners:?}"
            );
        }
    }
});
