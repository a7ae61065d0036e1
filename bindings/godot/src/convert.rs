//! Plain-Rust conversions between the shapes Godot hands over and the ones navstar takes.
//!
//! Nothing here touches a Godot type, so all of it runs in `cargo test` (engine-backed
//! types such as `PackedVector3Array` panic without a running engine). The class in
//! `lib.rs` only turns Godot values into `[f32; 3]`s and slices and calls in here.

use navstar::glam::Vec3;

/// Polygons in navstar's flat form: all corners polygon after polygon, plus the size of
/// each polygon.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PolygonList {
    /// Vertex indices of all corners.
    pub indices: Vec<u32>,
    /// Number of corners of each polygon.
    pub sizes: Vec<u32>,
}

/// Input that cannot even be handed to navstar (navstar reports everything else).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputError {
    /// A vertex index below zero (Godot arrays hold signed integers).
    NegativeIndex {
        /// Polygon number.
        polygon: usize,
        /// Corner number within the polygon.
        corner: usize,
        /// The value found.
        index: i32,
    },
    /// A polygon size below zero in the flat form.
    NegativeSize {
        /// Polygon number.
        polygon: usize,
        /// The value found.
        size: i32,
    },
    /// More polygons or corners than 32-bit indices can count.
    TooLarge,
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            InputError::NegativeIndex {
                polygon,
                corner,
                index,
            } => write!(
                f,
                "polygon {polygon}, corner {corner}: vertex index {index} is negative"
            ),
            InputError::NegativeSize { polygon, size } => {
                write!(f, "polygon {polygon} has a negative size ({size})")
            }
            InputError::TooLarge => f.write_str("the mesh is too large for 32-bit indices"),
        }
    }
}

impl std::error::Error for InputError {}

/// Godot positions (`Vector3` as `[x, y, z]`) to navstar's.
pub fn vertices(points: impl IntoIterator<Item = [f32; 3]>) -> Vec<Vec3> {
    points.into_iter().map(Vec3::from_array).collect()
}

/// navstar positions back to `[x, y, z]` for Godot.
pub fn points(corners: &[Vec3]) -> impl ExactSizeIterator<Item = [f32; 3]> + '_ {
    corners.iter().map(|c| c.to_array())
}

/// One index array per polygon, as `NavigationMesh.get_polygon(i)` returns them, to
/// navstar's flat form.
///
/// # Errors
/// [`InputError::NegativeIndex`] for an index below zero; [`InputError::TooLarge`] past
/// `u32::MAX` polygons or corners.
pub fn polygons<'a>(
    polygons: impl IntoIterator<Item = &'a [i32]>,
) -> Result<PolygonList, InputError> {
    let mut list = PolygonList::default();
    for (p, polygon) in polygons.into_iter().enumerate() {
        list.sizes
            .push(u32::try_from(polygon.len()).map_err(|_| InputError::TooLarge)?);
        push_indices(&mut list.indices, p, polygon)?;
    }
    check_count(list.sizes.len())?;
    check_count(list.indices.len())?;
    Ok(list)
}

/// navstar's flat form given as Godot integer arrays (`indices` polygon after polygon,
/// `sizes` the corner count of each). The sizes must add up to `indices.len()`; navstar
/// checks that.
///
/// # Errors
/// [`InputError::NegativeSize`] or [`InputError::NegativeIndex`] for values below zero
/// (the polygon and corner are counted from `sizes` while they still cover `indices`).
pub fn flat_polygons(indices: &[i32], sizes: &[i32]) -> Result<PolygonList, InputError> {
    check_count(sizes.len())?;
    check_count(indices.len())?;
    let sizes: Vec<u32> = sizes
        .iter()
        .enumerate()
        .map(|(polygon, &size)| {
            u32::try_from(size).map_err(|_| InputError::NegativeSize { polygon, size })
        })
        .collect::<Result<_, _>>()?;
    let mut flat = Vec::with_capacity(indices.len());
    let mut rest = indices;
    for (p, &size) in sizes.iter().enumerate() {
        let take = (size as usize).min(rest.len());
        let (polygon, tail) = rest.split_at(take);
        push_indices(&mut flat, p, polygon)?;
        rest = tail;
    }
    // Indices beyond the sizes still have to be valid numbers; navstar then reports the
    // count mismatch.
    push_indices(&mut flat, sizes.len(), rest)?;
    Ok(PolygonList {
        indices: flat,
        sizes,
    })
}

fn push_indices(out: &mut Vec<u32>, polygon: usize, corners: &[i32]) -> Result<(), InputError> {
    for (corner, &index) in corners.iter().enumerate() {
        out.push(u32::try_from(index).map_err(|_| InputError::NegativeIndex {
            polygon,
            corner,
            index,
        })?);
    }
    Ok(())
}

fn check_count(n: usize) -> Result<(), InputError> {
    u32::try_from(n)
        .map(|_| ())
        .map_err(|_| InputError::TooLarge)
}

/// A 2D point (`Vector2(x, y)`, as in `NavigationPolygon`) as a 3D ground point
/// `(x, 0, y)`: navstar meshes are y up and paths run in the x-z plane.
pub fn lift([x, y]: [f32; 2]) -> [f32; 3] {
    [x, 0.0, y]
}

/// A 3D point back to 2D: `(x, y, z)` to `(x, z)` (the height is dropped).
pub fn ground([x, _, z]: [f32; 3]) -> [f32; 2] {
    [x, z]
}

/// Godot's integers are `i64`; counts and flags are reported as such.
pub fn count(n: u32) -> i64 {
    i64::from(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_keep_order_and_values() {
        let v = vertices([[1.0, 2.0, 3.0], [-4.5, 0.0, 1e9]]);
        assert_eq!(v, [Vec3::new(1.0, 2.0, 3.0), Vec3::new(-4.5, 0.0, 1e9)]);
        assert_eq!(
            points(&v).collect::<Vec<_>>(),
            [[1.0, 2.0, 3.0], [-4.5, 0.0, 1e9]]
        );
        assert!(vertices([]).is_empty());
    }

    #[test]
    fn per_polygon_arrays_become_flat() {
        let quads: [&[i32]; 3] = [&[0, 1, 4, 3], &[1, 2, 5], &[3, 4, 7, 6, 8]];
        let list = polygons(quads).unwrap();
        assert_eq!(list.indices, [0, 1, 4, 3, 1, 2, 5, 3, 4, 7, 6, 8]);
        assert_eq!(list.sizes, [4, 3, 5]);
    }

    #[test]
    fn empty_and_short_polygons_pass_through_to_navstar() {
        // navstar names these (NoPolygons, TooFewVertices); conversion keeps them as given.
        assert_eq!(polygons([]).unwrap(), PolygonList::default());
        let short: [&[i32]; 1] = [&[0, 1]];
        assert_eq!(polygons(short).unwrap().sizes, [2]);
    }

    #[test]
    fn negative_index_is_named() {
        let bad: [&[i32]; 2] = [&[0, 1, 2], &[2, -1, 3]];
        let err = polygons(bad).unwrap_err();
        assert_eq!(
            err,
            InputError::NegativeIndex {
                polygon: 1,
                corner: 1,
                index: -1
            }
        );
        assert_eq!(
            err.to_string(),
            "polygon 1, corner 1: vertex index -1 is negative"
        );
    }

    #[test]
    fn flat_form_converts_and_checks_signs() {
        let list = flat_polygons(&[0, 1, 4, 3, 1, 2, 5], &[4, 3]).unwrap();
        assert_eq!(list.indices, [0, 1, 4, 3, 1, 2, 5]);
        assert_eq!(list.sizes, [4, 3]);

        assert_eq!(
            flat_polygons(&[0, 1, 2], &[3, -3]).unwrap_err(),
            InputError::NegativeSize {
                polygon: 1,
                size: -3
            }
        );
        assert_eq!(
            flat_polygons(&[0, 1, 2, 2, 1, -7], &[3, 3]).unwrap_err(),
            InputError::NegativeIndex {
                polygon: 1,
                corner: 2,
                index: -7
            }
        );
        // Mismatched totals are left for navstar to report, but values are still checked.
        assert_eq!(flat_polygons(&[0, 1, 2, 3], &[3]).unwrap().indices.len(), 4);
        assert!(flat_polygons(&[0, 1, 2, -3], &[3]).is_err());
        assert_eq!(flat_polygons(&[0, 1], &[3]).unwrap().sizes, [3]);
    }

    #[test]
    fn two_d_points_lie_on_the_ground() {
        assert_eq!(lift([1.5, -2.0]), [1.5, 0.0, -2.0]);
        assert_eq!(ground([1.5, 7.0, -2.0]), [1.5, -2.0]);
        assert_eq!(ground(lift([3.0, 4.0])), [3.0, 4.0]);
    }

    #[test]
    fn counts_widen() {
        assert_eq!(count(u32::MAX), 4_294_967_295);
    }
}
