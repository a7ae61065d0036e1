//! The corridor that follows an agent through the C ABI (`navstar_corridor_*`): the
//! answers equal the Rust `PathCorridor`'s, the buffer rules, and every rejection with
//! its status and the culprit named.

use std::ptr;

use glam::Vec3;
use navstar::ffi::*;
use navstar::{MeshOptions, NavMesh, PathCorridor, PathOptions, Query, Repair};

use crate::assert_status;

/// Two rows of three unit squares (y up): 0 1 2 along z in [0,1], 3 4 5 above.
fn grid() -> (Vec<f32>, Vec<u32>) {
    let vertices: Vec<f32> = (0..3)
        .flat_map(|z| (0..4).flat_map(move |x| [x as f32, 0.0, z as f32]))
        .collect();
    let indices: Vec<u32> = (0..2)
        .flat_map(|r| {
            (0..3).flat_map(move |c| {
                let a = r * 4 + c;
                [a, a + 1, a + 5, a + 4]
            })
        })
        .collect();
    (vertices, indices)
}

struct Handles {
    mesh: *mut NavstarMesh,
    query: *mut NavstarQuery,
    corridor: *mut NavstarCorridor,
    rust: NavMesh,
}

impl Drop for Handles {
    fn drop(&mut self) {
        // SAFETY: created by this test, freed once.
        unsafe {
            navstar_corridor_free(self.corridor);
            navstar_query_free(self.query);
            navstar_mesh_free(self.mesh);
        }
    }
}

const START: [f32; 3] = [0.5, 0.0, 0.5];
const TARGET: [f32; 3] = [2.5, 0.0, 0.5];

/// The grid as a C mesh and a Rust mesh, a query, and a corridor 0 1 2 from START to
/// TARGET.
fn handles() -> Handles {
    let (vertices, indices) = grid();
    let mut mesh = ptr::null_mut();
    // SAFETY: the arrays hold the counts given.
    let status = unsafe {
        navstar_mesh_create(
            vertices.as_ptr(),
            12,
            indices.as_ptr(),
            [4u32; 6].as_ptr(),
            6,
            ptr::null(),
            &mut mesh,
        )
    };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    let mut query = ptr::null_mut();
    // SAFETY: a live mesh and a writable out pointer.
    assert_status(
        unsafe { navstar_query_create(mesh, &mut query) },
        NavstarStatus::NavstarOk,
        &[],
    );
    let mut corridor = ptr::null_mut();
    // SAFETY: live mesh, 3 polygons, 3 floats each point, a writable out pointer.
    let status = unsafe {
        navstar_corridor_create(
            mesh,
            [0u32, 1, 2].as_ptr(),
            3,
            START.as_ptr(),
            TARGET.as_ptr(),
            &mut corridor,
        )
    };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    let points: Vec<Vec3> = vertices.chunks(3).map(Vec3::from_slice).collect();
    let rust = NavMesh::from_polygons(&points, &indices, &[4; 6], &MeshOptions::default()).unwrap();
    Handles {
        mesh,
        query,
        corridor,
        rust,
    }
}

fn polygons(corridor: *const NavstarCorridor) -> Vec<u32> {
    let mut out = [0u32; 16];
    let mut count = 0;
    // SAFETY: room for 16, a writable count.
    let status = unsafe { navstar_corridor_polygons(corridor, out.as_mut_ptr(), 16, &mut count) };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    out[..count as usize].to_vec()
}

fn corners(corridor: *mut NavstarCorridor) -> (Vec<Vec3>, Vec<u32>) {
    let (mut points, mut flags, mut count) = ([0f32; 48], [0u32; 16], 0);
    // SAFETY: room for 16 corners and flags, a writable count.
    let status = unsafe {
        navstar_corridor_corners(
            corridor,
            ptr::null(),
            0,
            points.as_mut_ptr(),
            flags.as_mut_ptr(),
            16,
            &mut count,
        )
    };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    let n = count as usize;
    (
        points[..3 * n].chunks(3).map(Vec3::from_slice).collect(),
        flags[..n].to_vec(),
    )
}

#[test]
fn a_corridor_is_moved_read_repaired_and_shortened_as_in_rust() {
    let h = handles();
    let mut rust = PathCorridor::new(&h.rust, 0, Vec3::from(START)).unwrap();
    rust.set_corridor(Vec3::from(TARGET), &[0, 1, 2]).unwrap();
    assert_eq!(polygons(h.corridor), [0, 1, 2]);
    let (points, flags) = corners(h.corridor);
    assert_eq!(points, [Vec3::from(TARGET)]);
    assert_eq!(flags, [u32::from(navstar::CornerFlags::END.bits())]);
    // A step.
    let step = [1.2f32, 0.0, 0.5];
    let mut on = 7;
    // SAFETY: live corridor, 3 floats, default filter, writable output.
    let status =
        unsafe { navstar_corridor_move_position(h.corridor, step.as_ptr(), ptr::null(), &mut on) };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    let filter = navstar::QueryFilter::default();
    assert_eq!(
        on,
        u32::from(rust.move_position(Vec3::from(step), &filter).unwrap())
    );
    assert_eq!(polygons(h.corridor), rust.polygons());
    let (mut position, mut target) = ([0f32; 3], [0f32; 3]);
    // SAFETY: 3 writable floats each.
    let status = unsafe {
        navstar_corridor_position(h.corridor, position.as_mut_ptr(), target.as_mut_ptr())
    };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    assert_eq!(
        (Vec3::from(position), Vec3::from(target)),
        (rust.position(), rust.target())
    );
    // Square 2 is the target's: close square 1... the agent is in it; close nothing yet.
    let mut valid = 7;
    // SAFETY: live corridor, writable output.
    let status = unsafe { navstar_corridor_is_valid(h.corridor, 8, ptr::null(), &mut valid) };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    assert_eq!(valid, 1);
    // Back to the start polygon, then close square 1 and repair round it.
    let back = [0.5f32, 0.0, 0.5];
    // SAFETY: as above.
    let status = unsafe {
        navstar_corridor_move_position(h.corridor, back.as_ptr(), ptr::null(), ptr::null_mut())
    };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    rust.move_position(Vec3::from(back), &filter).unwrap();
    // SAFETY: a live mesh.
    let status = unsafe { navstar_mesh_set_polygon_flags(h.mesh, 1, 0, ptr::null_mut()) };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    h.rust.set_polygon_flags(1, 0).unwrap();
    // SAFETY: as above.
    let status = unsafe { navstar_corridor_is_valid(h.corridor, 8, ptr::null(), &mut valid) };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    assert_eq!(valid, 0);
    let (mut outcome, mut kept) = (7, 7);
    // SAFETY: live corridor and query of its mesh, writable outputs.
    let status = unsafe {
        navstar_corridor_repair(h.corridor, h.query, ptr::null(), &mut outcome, &mut kept)
    };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    let want = rust
        .repair(&mut Query::new(&h.rust), &PathOptions::default())
        .unwrap();
    assert_eq!(want, Repair::Repaired { kept: 1 });
    assert_eq!((outcome, kept), (NAVSTAR_REPAIR_REPAIRED, 1));
    assert_eq!(polygons(h.corridor), rust.polygons());
    assert_eq!(polygons(h.corridor), [0, 3, 4, 5, 2]);
    assert_eq!(corners(h.corridor).0, rust.corners(16));
    // Valid now: nothing to repair.
    // SAFETY: as above.
    let status = unsafe {
        navstar_corridor_repair(
            h.corridor,
            h.query,
            ptr::null(),
            &mut outcome,
            ptr::null_mut(),
        )
    };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    assert_eq!(outcome, NAVSTAR_REPAIR_VALID);
    // Square 1 opens again: the target is in sight, the corridor shortens.
    // SAFETY: a live mesh.
    unsafe { navstar_mesh_set_polygon_flags(h.mesh, 1, 1, ptr::null_mut()) };
    let mut changed = 7;
    // SAFETY: live corridor, 3 floats, writable output.
    let status = unsafe {
        navstar_corridor_optimize(h.corridor, TARGET.as_ptr(), ptr::null(), &mut changed)
    };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    assert_eq!(changed, 1);
    assert_eq!(polygons(h.corridor), [0, 1, 2]);
    // The target moves back into square 1: the end is trimmed.
    let nearer = [1.5f32, 0.0, 0.5];
    // SAFETY: as above.
    let status =
        unsafe { navstar_corridor_move_target(h.corridor, nearer.as_ptr(), ptr::null(), &mut on) };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    assert_eq!((on, polygons(h.corridor)), (1, vec![0, 1]));
}

#[test]
fn a_corridor_from_a_query_follows_its_last_path() {
    let h = handles();
    let (start, goal) = ([0.5f32, 0.0, 0.5], [2.5f32, 0.0, 1.5]);
    // Close square 1 so that the path needs a search (no direct sight).
    // SAFETY: a live mesh.
    unsafe { navstar_mesh_set_polygon_flags(h.mesh, 1, 0, ptr::null_mut()) };
    let (mut points, mut count) = ([0f32; 30], 0);
    // SAFETY: live query, 3 floats each, room for 10 points.
    let status = unsafe {
        navstar_find_path(
            h.query,
            start.as_ptr(),
            goal.as_ptr(),
            ptr::null(),
            points.as_mut_ptr(),
            10,
            &mut count,
        )
    };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    let mut corridor = ptr::null_mut();
    // SAFETY: a live query, 3 floats each, a writable out pointer.
    let status = unsafe {
        navstar_corridor_create_from_query(h.query, start.as_ptr(), goal.as_ptr(), &mut corridor)
    };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    let mut query = Query::new(&h.rust);
    h.rust.set_polygon_flags(1, 0).unwrap();
    query
        .find_path(Vec3::from(start), Vec3::from(goal), &PathOptions::default())
        .unwrap();
    let want: Vec<u32> = query.corridor().collect();
    assert_eq!(polygons(corridor), want);
    assert_eq!(corners(corridor).0.last(), Some(&Vec3::from(goal)));
    // SAFETY: created above, freed once.
    unsafe { navstar_corridor_free(corridor) };
}

#[test]
fn bad_input_is_refused_with_the_culprit_named() {
    let h = handles();
    let mut corridor = ptr::null_mut();
    let nan = [f32::NAN, 0.0, 0.0];
    let cases: [(&[u32], *const f32, NavstarStatus, &str); 5] = [
        (
            &[0, 99],
            START.as_ptr(),
            NavstarStatus::NavstarErrorInvalidArgument,
            "polygons[1] = 99",
        ),
        (
            &[0, 2],
            START.as_ptr(),
            NavstarStatus::NavstarErrorInvalidArgument,
            "polygons",
        ),
        (
            &[],
            START.as_ptr(),
            NavstarStatus::NavstarErrorInvalidArgument,
            "polygons",
        ),
        (
            &[0],
            ptr::null(),
            NavstarStatus::NavstarErrorNullArgument,
            "start",
        ),
        (
            &[0],
            nan.as_ptr(),
            NavstarStatus::NavstarErrorInvalidArgument,
            "start",
        ),
    ];
    for (list, start, status, culprit) in cases {
        // SAFETY: the list holds its length; points NULL or 3 floats.
        let got = unsafe {
            navstar_corridor_create(
                h.mesh,
                list.as_ptr(),
                list.len() as u32,
                start,
                TARGET.as_ptr(),
                &mut corridor,
            )
        };
        assert_status(got, status, &[culprit]);
        assert!(corridor.is_null(), "NULL on error");
    }
    // A query whose last path has no corridor (it found none yet).
    // SAFETY: live query, 3 floats each.
    let status = unsafe {
        navstar_corridor_create_from_query(h.query, START.as_ptr(), TARGET.as_ptr(), &mut corridor)
    };
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["query"],
    );
    // NULL handles and outputs.
    let mut count = 0;
    // SAFETY: NULL corridor is checked.
    let status = unsafe { navstar_corridor_polygons(ptr::null(), ptr::null_mut(), 0, &mut count) };
    assert_status(
        status,
        NavstarStatus::NavstarErrorNullArgument,
        &["corridor"],
    );
    // SAFETY: NULL buffer with capacity > 0 is checked.
    let status = unsafe { navstar_corridor_polygons(h.corridor, ptr::null_mut(), 4, &mut count) };
    assert_status(
        status,
        NavstarStatus::NavstarErrorNullArgument,
        &["out_polygons"],
    );
    // A buffer too small: the prefix and the full count.
    let mut two = [0u32; 2];
    // SAFETY: room for 2.
    let status = unsafe { navstar_corridor_polygons(h.corridor, two.as_mut_ptr(), 2, &mut count) };
    assert_status(status, NavstarStatus::NavstarBufferTooSmall, &[]);
    assert_eq!((two, count), ([0, 1], 3));
    let (mut point, mut flag) = ([0f32; 3], [0u32; 1]);
    // SAFETY: room for 0 corners; the count is written.
    let status = unsafe {
        navstar_corridor_corners(
            h.corridor,
            ptr::null(),
            0,
            point.as_mut_ptr(),
            flag.as_mut_ptr(),
            0,
            &mut count,
        )
    };
    assert_status(status, NavstarStatus::NavstarBufferTooSmall, &[]);
    assert_eq!(count, 1);
    // SAFETY: as above, a bad switch value.
    let status = unsafe {
        navstar_corridor_corners(
            h.corridor,
            ptr::null(),
            2,
            point.as_mut_ptr(),
            flag.as_mut_ptr(),
            1,
            &mut count,
        )
    };
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["split_at_area_changes"],
    );
    // SAFETY: NaN positions are checked.
    let status = unsafe {
        navstar_corridor_move_position(h.corridor, nan.as_ptr(), ptr::null(), ptr::null_mut())
    };
    assert_status(status, NavstarStatus::NavstarErrorInvalidArgument, &[]);
    // SAFETY: as above.
    let status =
        unsafe { navstar_corridor_optimize(h.corridor, ptr::null(), ptr::null(), ptr::null_mut()) };
    assert_status(status, NavstarStatus::NavstarErrorNullArgument, &["next"]);
    // A query of another mesh.
    let other = handles();
    let mut outcome = 0;
    // SAFETY: live handles.
    let status = unsafe {
        navstar_corridor_repair(
            h.corridor,
            other.query,
            ptr::null(),
            &mut outcome,
            ptr::null_mut(),
        )
    };
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["query"],
    );
    // The agent's own polygon closed: nothing to keep.
    // SAFETY: a live mesh.
    unsafe { navstar_mesh_set_polygon_flags(h.mesh, 0, 0, ptr::null_mut()) };
    // SAFETY: live handles.
    let status = unsafe {
        navstar_corridor_repair(
            h.corridor,
            h.query,
            ptr::null(),
            &mut outcome,
            ptr::null_mut(),
        )
    };
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["polygon 0"],
    );
    assert_eq!(polygons(h.corridor), [0, 1, 2], "unchanged");
}
