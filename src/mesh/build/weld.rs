//! Vertex welding: vertices within the weld distance of each other become one, so that
//! meshes exported with one vertex per face corner still share edges.

use std::collections::HashMap;

use glam::Vec3;

use crate::alloc::{try_map_with_capacity, try_vec_with_capacity};
use crate::error::MeshError;

/// Maps every vertex to the lowest-numbered vertex within `distance` of it (greedy, in
/// index order). Uses a hash grid with cells of `distance`, so it is linear in practice.
pub(super) fn weld_map(vertices: &[Vec3], distance: f32) -> Result<Vec<u32>, MeshError> {
    let mut map = try_vec_with_capacity(vertices.len(), "vertex welding")?;
    if distance == 0.0 {
        let mut seen: HashMap<[u32; 3], u32> =
            try_map_with_capacity(vertices.len(), "vertex welding")?;
        for (i, v) in vertices.iter().enumerate() {
            // `+ 0.0` folds -0.0 into 0.0 so that both weld.
            let key = (*v + Vec3::ZERO).to_array().map(f32::to_bits);
            map.push(*seen.entry(key).or_insert(i as u32));
        }
        return Ok(map);
    }
    let cell = |v: Vec3| (v / distance).floor().as_ivec3();
    let mut grid: HashMap<glam::IVec3, Vec<u32>> =
        try_map_with_capacity(vertices.len(), "vertex welding")?;
    for (i, &v) in vertices.iter().enumerate() {
        let c = cell(v);
        let mut target = i as u32;
        'search: for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    // Wrapping: a huge ratio saturates the cell to i32::MAX, and its
                    // neighbour must not overflow (candidates are checked by distance).
                    let near = c.wrapping_add(glam::IVec3::new(dx, dy, dz));
                    if let Some(bucket) = grid.get(&near) {
                        if let Some(&r) = bucket
                            .iter()
                            .find(|&&r| vertices[r as usize].distance(v) <= distance)
                        {
                            target = r;
                            break 'search;
                        }
                    }
                }
            }
        }
        if target == i as u32 {
            let bucket = grid.entry(c).or_default();
            bucket
                .try_reserve(1)
                .map_err(|_| MeshError::OutOfMemory("vertex welding"))?;
            bucket.push(target);
        }
        map.push(target);
    }
    Ok(map)
}
