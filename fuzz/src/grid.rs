//! Fuzzed meshes that are valid by construction: a grid of up to 8 x 8 jittered cells
//! with holes (islands, dead ends, pinched corners), some cells split into triangles,
//! optional heights, Y or Z up, either winding, and optionally one vertex copy per
//! polygon corner (welded back by the builder).

use arbitrary::Arbitrary;
use navstar::glam::Vec3;

/// The shape of a fuzzed grid mesh.
#[derive(Arbitrary, Debug, Clone)]
pub struct GridSpec {
    /// Columns, 1 + `cols % 8`.
    pub cols: u8,
    /// Rows, 1 + `rows % 8`.
    pub rows: u8,
    /// Bit `k % 64`: cell `k` is a hole.
    pub holes: u64,
    /// Bit `k % 64`: cell `k` is two triangles.
    pub split: u64,
    /// Bit `k % 64`: which diagonal splits cell `k`.
    pub diagonal: u64,
    /// Per vertex: moves in the ground plane and a height.
    pub jitter: Vec<[i8; 3]>,
    /// Scales the heights.
    pub height_scale: u8,
    /// Z is up (else Y).
    pub z_up: bool,
    /// Corners listed clockwise.
    pub reverse: bool,
    /// One vertex copy per polygon corner.
    pub unwelded: bool,
    /// Every cell is two triangles and `polygon_sizes` is NULL.
    pub triangles: bool,
}

/// The arrays the mesh constructors take.
#[derive(Debug, Clone, Default)]
pub struct Arrays {
    /// Vertex positions.
    pub vertices: Vec<Vec3>,
    /// Corner indices, polygon after polygon.
    pub indices: Vec<u32>,
    /// Corners per polygon.
    pub sizes: Vec<u32>,
}

impl Arrays {
    /// The vertices as `3 * n` floats.
    pub fn floats(&self) -> Vec<f32> {
        self.vertices.iter().flat_map(|v| v.to_array()).collect()
    }

    /// The corner indices of each polygon.
    pub fn polygons(&self) -> impl Iterator<Item = &[u32]> {
        let mut rest = &self.indices[..];
        self.sizes.iter().map(move |&n| {
            let (polygon, tail) = rest.split_at(n as usize);
            rest = tail;
            polygon
        })
    }

    /// A point of polygon `polygon % count` (see [`crate::fan_point`]); `None` without
    /// polygons.
    pub fn point_in_polygon(&self, polygon: u32, s: u8, t: u8, u: u8) -> Option<Vec3> {
        let count = self.sizes.len();
        let corners = self.polygons().nth(polygon as usize % count.max(1))?;
        Some(crate::fan_point(corners, &self.vertices, s, t, u))
    }
}

impl GridSpec {
    /// Columns and rows.
    pub fn dims(&self) -> (usize, usize) {
        (
            1 + usize::from(self.cols % 8),
            1 + usize::from(self.rows % 8),
        )
    }

    /// The vertices, indices and polygon sizes of the grid (no polygon when every cell
    /// is a hole).
    pub fn arrays(&self) -> Arrays {
        let (cols, rows) = self.dims();
        let grid_vertex = |i: usize, j: usize| {
            let k = j * (cols + 1) + i;
            let [jx, jy, jz] = self.jitter.get(k).copied().unwrap_or_default();
            let x = i as f32 + f32::from(jx) / 128.0 * 0.18;
            let z = j as f32 + f32::from(jz) / 128.0 * 0.18;
            let y = f32::from(jy) * f32::from(self.height_scale) / (128.0 * 256.0);
            if self.z_up {
                Vec3::new(x, z, y)
            } else {
                Vec3::new(x, y, z)
            }
        };
        let mut arrays = Arrays::default();
        if !self.unwelded {
            for j in 0..=rows {
                for i in 0..=cols {
                    arrays.vertices.push(grid_vertex(i, j));
                }
            }
        }
        let polygon = |arrays: &mut Arrays, corners: &[(usize, usize)]| {
            let mut ids: Vec<u32> = corners
                .iter()
                .map(|&(i, j)| {
                    if self.unwelded {
                        arrays.vertices.push(grid_vertex(i, j));
                        arrays.vertices.len() as u32 - 1
                    } else {
                        (j * (cols + 1) + i) as u32
                    }
                })
                .collect();
            if self.reverse {
                ids.reverse();
            }
            arrays.indices.extend(&ids);
            arrays.sizes.push(ids.len() as u32);
        };
        for j in 0..rows {
            for i in 0..cols {
                let bit = 1u64 << ((j * cols + i) % 64);
                if self.holes & bit != 0 {
                    continue;
                }
                let (a, b, c, d) = ((i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1));
                if self.triangles || self.split & bit != 0 {
                    if self.diagonal & bit != 0 {
                        polygon(&mut arrays, &[a, b, c]);
                        polygon(&mut arrays, &[a, c, d]);
                    } else {
                        polygon(&mut arrays, &[a, b, d]);
                        polygon(&mut arrays, &[b, c, d]);
                    }
                } else {
                    polygon(&mut arrays, &[a, b, c, d]);
                }
            }
        }
        arrays
    }
}
