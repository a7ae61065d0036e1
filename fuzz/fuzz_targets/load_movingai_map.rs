//! Fuzzes the Moving AI grid map loader (`navstar::io::parse_movingai_map_bytes`) with
//! arbitrary bytes.
//!
//! Checks: no panic; the same result when the streaming parser is fed a few bytes at a
//! time; parse errors name an existing line; an accepted map has `width * height` cells;
//! a map with a passable cell builds into a mesh (merged rectangles) whose islands match
//! the 4-connected components of the cells (checked by queries between cell centres:
//! complete exactly when connected), as does the one-square-per-cell soup, which has one
//! polygon per passable cell; queries on the mesh are valid; and the C loader
//! (`navstar_mesh_load_bytes`) answers as the Rust loader (`navstar_fuzz::loaders`).
#![no_main]

use std::collections::VecDeque;

use libfuzzer_sys::fuzz_target;
use navstar::ffi::NAVSTAR_FORMAT_MOVINGAI_MAP;
use navstar::io::{GridMap, parse_movingai_map, parse_movingai_map_bytes};
use navstar::{MeshOptions, PathOptions, PathStatus, Query, UpAxis};
use navstar_fuzz::loaders::check_load_bytes;
use navstar_fuzz::{
    MeshOpts, check_answer, check_parse_result, check_soup, parse_in_pieces, picks,
};

/// The 4-connected component of every cell (`u32::MAX` for blocked cells).
fn components(map: &GridMap) -> Vec<u32> {
    let (w, h) = (map.width as usize, map.height as usize);
    let mut label = vec![u32::MAX; w * h];
    let mut next = 0;
    for seed in 0..w * h {
        if !map.walkable[seed] || label[seed] != u32::MAX {
            continue;
        }
        label[seed] = next;
        let mut queue = VecDeque::from([seed]);
        while let Some(c) = queue.pop_front() {
            let (x, y) = (c % w, c / w);
            let around = [
                (x > 0).then(|| c - 1),
                (x + 1 < w).then(|| c + 1),
                (y > 0).then(|| c - w),
                (y + 1 < h).then(|| c + w),
            ];
            for n in around.into_iter().flatten() {
                if map.walkable[n] && label[n] == u32::MAX {
                    label[n] = next;
                    queue.push_back(n);
                }
            }
        }
        next += 1;
    }
    label
}

fuzz_target!(|data: &[u8]| {
    let parsed = parse_movingai_map_bytes(data);
    check_parse_result(data, &parsed, &parse_in_pieces(data, parse_movingai_map));
    let Ok(map) = parsed else { return };
    assert_eq!(
        map.walkable.len() as u64,
        u64::from(map.width) * u64::from(map.height)
    );
    assert_eq!(
        map.walkable_count(),
        map.walkable.iter().filter(|&&w| w).count()
    );
    if map.walkable.len() > 1 << 18 {
        return; // keep executions fast; the size limits are unit-tested
    }
    check_load_bytes(data, NAVSTAR_FORMAT_MOVINGAI_MAP, &MeshOpts::Null);
    let options = MeshOptions::default();
    let mesh = match map.to_mesh(&options) {
        Ok(mesh) => mesh,
        Err(e) => {
            assert_eq!(
                map.walkable_count(),
                0,
                "a map with passable cells failed: {e}"
            );
            return;
        }
    };
    assert_eq!(mesh.up_axis(), UpAxis::Z);
    assert!(mesh.polygon_count() as usize <= map.walkable_count());
    let soup = map.to_cell_soup().expect("the cell soup of a good map");
    check_soup(&soup, Some(UpAxis::Z));
    assert_eq!(soup.polygon_sizes.len(), map.walkable_count());
    let cell_mesh = soup
        .into_mesh(&options)
        .expect("the cell soup of a good map builds");
    assert_eq!(cell_mesh.polygon_count() as usize, map.walkable_count());

    let label = components(&map);
    let cells: Vec<usize> = (0..map.walkable.len())
        .filter(|&c| map.walkable[c])
        .collect();
    let w = map.width as usize;
    let centre =
        |c: usize| navstar::glam::Vec3::new((c % w) as f32 + 0.5, (c / w) as f32 + 0.5, 0.0);
    let path_options = PathOptions::default();
    for m in [&mesh, &cell_mesh] {
        let mut query = Query::new(m);
        for pick in picks(data).chunks_exact(4).take(3) {
            let a = cells[usize::from(u16::from_le_bytes([pick[0], pick[1]])) % cells.len()];
            let b = cells[usize::from(u16::from_le_bytes([pick[2], pick[3]])) % cells.len()];
            let answer = query
                .find_path_vec(centre(a), centre(b), &path_options)
                .map(|path| (path.corners, path.status));
            check_answer(m, centre(a), centre(b), &path_options, &answer);
            let (_, status) = answer.expect("a query between cell centres failed");
            assert_eq!(
                status == PathStatus::Complete,
                label[a] == label[b],
                "cells {a} -> {b}: {status:?}"
            );
        }
    }
});
