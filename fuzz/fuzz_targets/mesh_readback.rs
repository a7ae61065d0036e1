//! Fuzzes the mesh read-back functions (`navstar_mesh_vertices`,
//! `navstar_mesh_polygon_sizes`, `_corners`, `_neighbours`, `_areas`, `_flags`,
//! `_islands`, `_ids`, `_points`, `navstar_mesh_bounds`, `navstar_mesh_island_count`)
//! on meshes with areas, flags and links, built from arrays or put into a world of
//! tiles (one to three copies, so that polygon ids carry slots and vertices are numbered
//! tile after tile), between changes of polygon flags.
//!
//! Checks: every answer equals the Rust accessors of the same mesh (a Rust world built
//! alike for snapshots), bit for bit; the too-small rule (prefix written, nothing past
//! `capacity`, the full count, `NAVSTAR_BUFFER_TOO_SMALL` exactly when it does not fit);
//! NULL arguments named in the documented order with nothing written; unknown polygons
//! refused by number.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use navstar::ffi::{NavstarStatus, navstar_mesh_set_polygon_flags};
use navstar::{NavMesh, UpAxis, World, WorldOptions};
use navstar_fuzz::mesh_readback::{
    Array, Call, Expected, check_areas, check_array, check_bounds, check_points, check_vertices,
};
use navstar_fuzz::world::{c_world_create, world_options};
use navstar_fuzz::{CMesh, MeshSpec, OK, check_status_and_message};

#[derive(Arbitrary, Debug)]
struct Input {
    mesh: MeshSpec,
    /// Put the mesh into a world: `max_tiles = 1 << (log2 % 5)`, `1 + copies % 3` tiles.
    world: Option<(u8, u8)>,
    ops: Vec<Op>,
}

#[derive(Arbitrary, Debug)]
enum Op {
    Array(Array, Call),
    Vertices(Call),
    Areas(Call),
    /// The polygon `ids[pick % count]`, or `any` as it is.
    Points {
        pick: u16,
        any: Option<u32>,
        call: Call,
    },
    Bounds {
        min_null: bool,
        max_null: bool,
        mesh_null: bool,
    },
    SetFlags {
        pick: u16,
        flags: u32,
    },
}

/// The mesh to read through C, and the same mesh in Rust.
fn target(input: &Input, c: CMesh, rust: NavMesh) -> Option<(CMesh, NavMesh)> {
    let Some((log2, copies)) = input.world else {
        return Some((c, rust));
    };
    let max_tiles = 1u32 << (log2 % 5);
    let up = rust.up_axis();
    let mut c_options = world_options(max_tiles, 0.001, 0.25);
    c_options.up_axis = u32::from(up == UpAxis::Z);
    let c_world = c_world_create(&c_options).ok()?;
    let world = World::new(
        &WorldOptions::default()
            .with_up_axis(up)
            .with_max_tiles(max_tiles),
    )
    .expect("valid world options");
    for _ in 0..=copies % 3 {
        let (status, _) = c_world.add(&c);
        match world.add_tile(&rust) {
            Ok(_) => assert_eq!(status, OK),
            Err(e) => {
                assert_eq!(status, NavstarStatus::from(&e), "Rust said {e}");
                break;
            }
        }
    }
    Some((c_world.snapshot(), world.snapshot()))
}

fuzz_target!(|input: Input| {
    let Some(built) = input.mesh.build() else {
        return;
    };
    let Some((c, rust)) = target(&input, built.c, built.rust) else {
        return;
    };
    let mut expected = Expected::of(&rust);
    for op in input.ops.iter().take(16) {
        match *op {
            Op::Array(array, call) => check_array(&c, &expected, array, call),
            Op::Vertices(call) => check_vertices(&c, &expected, call),
            Op::Areas(call) => check_areas(&c, &expected, call),
            Op::Points { pick, any, call } => {
                let ids = expected.ids();
                let polygon = match any {
                    Some(any) => any,
                    None if ids.is_empty() => 0,
                    None => ids[usize::from(pick) % ids.len()],
                };
                check_points(&c, &rust, polygon, call);
            }
            Op::Bounds {
                min_null,
                max_null,
                mesh_null,
            } => {
                check_bounds(&c, &rust, min_null, max_null, mesh_null);
            }
            Op::SetFlags { pick, flags } => {
                let ids = expected.ids();
                if ids.is_empty() {
                    continue;
                }
                let polygon = ids[usize::from(pick) % ids.len()];
                // The C and Rust meshes share no flags: set both.
                // SAFETY: a live mesh.
                let status = unsafe {
                    navstar_mesh_set_polygon_flags(c.as_ptr(), polygon, flags, std::ptr::null_mut())
                };
                check_status_and_message("navstar_mesh_set_polygon_flags", status);
                assert_eq!(status, OK);
                rust.set_polygon_flags(polygon, flags)
                    .expect("a polygon of the mesh");
                expected = Expected::of(&rust);
            }
        }
    }
});
