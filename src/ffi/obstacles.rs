//! Obstacles of a world in the C ABI: a versioned struct describing the shape (a convex
//! polygon, a disc or a turned box, with a height range), and adding, moving and
//! removing obstacles by reference.

use super::boundary::{FfiError, Out, Versioned, non_null, read_array, read_versioned, run};
use super::handle::{self, NavstarWorld, WorldState};
use super::status::NavstarStatus;
use crate::glam::Vec2;
use crate::{MAX_FOOTPRINT_CORNERS, MeshError, Obstacle, ObstacleId};

/// `NavstarObstacle::shape`: a convex polygon of `point_count` ground points at
/// `points`. The default.
pub const NAVSTAR_OBSTACLE_POLYGON: u32 = 0;
/// `NavstarObstacle::shape`: a disc of `radius` round `center` (drawn as a polygon of
/// 16 corners outside the circle).
pub const NAVSTAR_OBSTACLE_CIRCLE: u32 = 1;
/// `NavstarObstacle::shape`: a box of `half_extents` round `center`, turned by `angle`.
pub const NAVSTAR_OBSTACLE_BOX: u32 = 2;

/// An obstacle's shape for `navstar_world_add_obstacle` and
/// `navstar_world_move_obstacle`. Get defaults from `navstar_obstacle_default()` and
/// set the fields of the shape you choose. Coordinates are in the ground plane: `x, z`
/// when Y is up, `x, y` when Z is up.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NavstarObstacle {
    /// `sizeof(NavstarObstacle)` as the caller was compiled; set by the default
    /// constructor.
    pub struct_size: u32,
    /// `NAVSTAR_OBSTACLE_POLYGON` (default), `NAVSTAR_OBSTACLE_CIRCLE` or
    /// `NAVSTAR_OBSTACLE_BOX`.
    pub shape: u32,
    /// Circle and box: the centre (ground plane).
    pub center: [f32; 2],
    /// Circle: the radius, finite and > 0.
    pub radius: f32,
    /// Box: half its size along each of its axes, finite and > 0.
    pub half_extents: [f32; 2],
    /// Box: its turn in radians, counter-clockwise from the first ground axis.
    pub angle: f32,
    /// The lowest height the obstacle stands in (default -infinity).
    pub bottom: f32,
    /// The highest height it stands in (default +infinity); `bottom <= top`.
    pub top: f32,
    /// Polygon: the number of points (3 to 256).
    pub point_count: u32,
    /// Zero.
    pub reserved: u32,
    /// Polygon: `2 * point_count` floats, the ground points of a strictly convex polygon
    /// in either winding. Not kept after the call.
    pub points: *const f32,
}

impl Default for NavstarObstacle {
    fn default() -> Self {
        NavstarObstacle {
            struct_size: size_of::<NavstarObstacle>() as u32,
            shape: NAVSTAR_OBSTACLE_POLYGON,
            center: [0.0; 2],
            radius: 0.0,
            half_extents: [0.0; 2],
            angle: 0.0,
            bottom: f32::NEG_INFINITY,
            top: f32::INFINITY,
            point_count: 0,
            reserved: 0,
            points: std::ptr::null(),
        }
    }
}

// SAFETY: #[repr(C)], starts with `struct_size: u32`, and made of u32/f32 and a raw
// pointer, for which any bits are a valid value.
unsafe impl Versioned for NavstarObstacle {
    const OLDER_SIZES: &'static [usize] = &[];
    const DEFAULT_FUNCTION: &'static str = "navstar_obstacle_default";
}

/// An obstacle of a world, as `navstar_world_add_obstacle` hands it out. A reference to
/// an obstacle that was removed, or one made by another world (or a zeroed one), is
/// refused with `NAVSTAR_ERROR_STALE_REFERENCE`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct NavstarObstacleRef {
    /// The world that made the reference (never 0 in a reference navstar made).
    pub world: u32,
    /// Zero.
    pub reserved: u32,
    /// The obstacle's number in that world (from 1, never given twice).
    pub id: u64,
}

/// Default obstacle: a polygon with no points (set `points` and `point_count`, or
/// choose another `shape`), standing at every height.
#[unsafe(no_mangle)]
pub extern "C" fn navstar_obstacle_default() -> NavstarObstacle {
    NavstarObstacle::default()
}

impl NavstarObstacle {
    /// Reads a required obstacle argument into a checked Rust obstacle, naming the field
    /// at fault.
    fn read(ptr: *const NavstarObstacle) -> Result<Obstacle, FfiError> {
        let raw = read_versioned(non_null(ptr, "obstacle")?, "obstacle")?;
        let named = |field: &str, error: MeshError| {
            FfiError::invalid(format!("obstacle->{field}: {error}"))
        };
        let obstacle = match raw.shape {
            NAVSTAR_OBSTACLE_POLYGON => {
                if raw.point_count as usize > MAX_FOOTPRINT_CORNERS || raw.point_count < 3 {
                    return Err(FfiError::invalid(format!(
                        "obstacle->point_count is {}; a polygon has 3 to {MAX_FOOTPRINT_CORNERS} points",
                        raw.point_count
                    )));
                }
                let floats =
                    read_array(raw.points, 2 * raw.point_count as usize, "obstacle->points")?;
                let points: Vec<Vec2> = floats.chunks_exact(2).map(Vec2::from_slice).collect();
                Obstacle::new(&points).map_err(|e| named("points", e))?
            }
            NAVSTAR_OBSTACLE_CIRCLE => Obstacle::circle(Vec2::from(raw.center), raw.radius)
                .map_err(|e| named("center/radius", e))?,
            NAVSTAR_OBSTACLE_BOX => Obstacle::rotated_box(
                Vec2::from(raw.center),
                Vec2::from(raw.half_extents),
                raw.angle,
            )
            .map_err(|e| named("center/half_extents/angle", e))?,
            other => {
                return Err(FfiError::invalid(format!(
                    "obstacle->shape is {other}; expected NAVSTAR_OBSTACLE_POLYGON (0), \
                     NAVSTAR_OBSTACLE_CIRCLE (1) or NAVSTAR_OBSTACLE_BOX (2)"
                )));
            }
        };
        obstacle
            .with_height_range(raw.bottom, raw.top)
            .map_err(|e| named("bottom/top", e))
    }
}

impl WorldState {
    /// The Rust id a C reference names; one made by another world is
    /// `NAVSTAR_ERROR_STALE_REFERENCE`.
    fn obstacle_id(&self, obstacle: NavstarObstacleRef) -> Result<ObstacleId, FfiError> {
        if obstacle.world != self.id {
            return Err(FfiError::new(
                NavstarStatus::NavstarErrorStaleReference,
                format!(
                    "obstacle (id {}) was made by world {}, not by this world ({})",
                    obstacle.id, obstacle.world, self.id
                ),
            ));
        }
        Ok(ObstacleId(obstacle.id))
    }
}

/// Adds an obstacle to a world: the polygons its footprint (grown by each tile's baked
/// agent radius) overlaps within its height range are cut, and the next snapshot has
/// them so; snapshots taken before keep the world as it was. Polygon references into
/// the tiles it cuts become stale (tile references stay valid). Tiles added later are
/// cut by it too.
///
/// * `obstacle` (in): the shape; NULL is `NAVSTAR_ERROR_NULL_ARGUMENT`. An unknown
///   `shape`, too few or too many points, a NaN or infinite coordinate, a footprint that
///   is not strictly convex, a radius or half extent that is not > 0, or `bottom > top`,
///   is `NAVSTAR_ERROR_INVALID_ARGUMENT` naming the field (and the point).
/// * `out_obstacle` (out): the obstacle's reference; zeroed on error.
///
/// A cut that cannot be split into polygons is `NAVSTAR_ERROR_INVALID_MESH`; the world
/// is then unchanged.
///
/// # Safety
/// `world` must be NULL or a live world; `obstacle` NULL or a readable struct of its
/// `struct_size` whose `points` (for a polygon) has `2 * point_count` readable floats;
/// `out_obstacle` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_world_add_obstacle(
    world: *mut NavstarWorld,
    obstacle: *const NavstarObstacle,
    out_obstacle: *mut NavstarObstacleRef,
) -> NavstarStatus {
    run("navstar_world_add_obstacle", || {
        let out = Out::required(out_obstacle, "out_obstacle")?;
        out.set(NavstarObstacleRef::default());
        let state = handle::borrow(world, "world")?;
        let obstacle = NavstarObstacle::read(obstacle)?;
        let id = state.world.add_obstacle(&obstacle)?;
        out.set(NavstarObstacleRef {
            world: state.id,
            reserved: 0,
            id: id.0,
        });
        Ok(NavstarStatus::NavstarOk)
    })
}

/// Gives an obstacle a new shape (moved, turned, resized): the tiles near it before or
/// after are cut again, in one step for the snapshots.
///
/// * `obstacle` (in): the obstacle; one removed, never made, or made by another world is
///   `NAVSTAR_ERROR_STALE_REFERENCE`.
/// * `shape` (in): its new shape, checked as by `navstar_world_add_obstacle`.
///
/// On error the world is unchanged.
///
/// # Safety
/// `world` must be NULL or a live world; `shape` as `obstacle` of
/// `navstar_world_add_obstacle`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_world_move_obstacle(
    world: *mut NavstarWorld,
    obstacle: NavstarObstacleRef,
    shape: *const NavstarObstacle,
) -> NavstarStatus {
    run("navstar_world_move_obstacle", || {
        let state = handle::borrow(world, "world")?;
        let id = state.obstacle_id(obstacle)?;
        let shape = NavstarObstacle::read(shape)?;
        state.world.move_obstacle(id, &shape)?;
        Ok(NavstarStatus::NavstarOk)
    })
}

/// Removes an obstacle: the tiles it cut are cut again without it (a tile left with no
/// obstacle is the mesh it was added as again, polygon for polygon).
///
/// An obstacle already removed, never made, or made by another world is
/// `NAVSTAR_ERROR_STALE_REFERENCE`; the world is then unchanged.
///
/// # Safety
/// `world` must be NULL or a live world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_world_remove_obstacle(
    world: *mut NavstarWorld,
    obstacle: NavstarObstacleRef,
) -> NavstarStatus {
    run("navstar_world_remove_obstacle", || {
        let state = handle::borrow(world, "world")?;
        state.world.remove_obstacle(state.obstacle_id(obstacle)?)?;
        Ok(NavstarStatus::NavstarOk)
    })
}

/// The number of obstacles in a world now (0 for NULL).
///
/// # Safety
/// `world` must be NULL or a live world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_world_obstacle_count(world: *const NavstarWorld) -> u32 {
    handle::get(world).map_or(0, |state| state.world.obstacle_count() as u32)
}
