//! Fuzzes the path read-back functions (`navstar_query_path_info`,
//! `navstar_query_path_details`, `navstar_query_path_corridor`, `navstar_query_path_arcs`)
//! on meshes with areas,
//! flags and off-mesh links, between `navstar_find_path` calls with any options and
//! filters.
//!
//! One C query answers a sequence of path calls and read-backs. Before the first path,
//! and after a path call that failed, every read-back is `NAVSTAR_ERROR_NO_PATH`.
//! After a path (also after `NAVSTAR_BUFFER_TOO_SMALL`) they must equal, bit for bit,
//! what the Rust API gives for the same path on a mesh built from the same arrays with a
//! fresh query (points, corner details, corridor, length, cost), keep the buffer rules
//! (guards after `capacity`, `NAVSTAR_BUFFER_TOO_SMALL` with the full count), and keep
//! what the docs promise of any path: START on the first corner only and END on the
//! last only, link indices exactly at link corners, corridor polygons admitted by the
//! filter and bordering each other, the length in f64, turns round wall corners only
//! with an agent radius, inside the path, round a mesh vertex at about the radius. NULL arguments give
//! `NAVSTAR_ERROR_NULL_ARGUMENT` naming the argument.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use navstar::Query;
use navstar_fuzz::readback::{LastCall, LastPath, ReadBack, check_read_back};
use navstar_fuzz::{Expect, MeshOps, PointIn, QueryOpts, compare_query};

#[derive(Arbitrary, Debug)]
enum Op {
    Path {
        start: PointIn,
        goal: PointIn,
        options: QueryOpts,
        capacity: u8,
        out_null: bool,
    },
    ReadBack(ReadBack),
}

fuzz_target!(|input: MeshOps<Op>| {
    let Some(built) = input.mesh.build() else {
        return;
    };
    let mut cquery = built.c.query();
    let mut last = LastCall::Nothing;
    for op in input.ops.iter().take(12) {
        match op {
            Op::Path {
                start,
                goal,
                options,
                capacity,
                out_null,
            } => {
                let mut rquery = Query::new(&built.rust);
                let path = compare_query(
                    &mut cquery,
                    &mut rquery,
                    start.resolve(&built.rust),
                    goal.resolve(&built.rust),
                    options,
                    u32::from(capacity % 24),
                    *out_null,
                );
                last = match path {
                    None => LastCall::Nothing,
                    Some(path) => LastCall::Path(Box::new(LastPath {
                        path,
                        options: match options.expected() {
                            Expect::Accept(o) => o,
                            other => panic!("a path with options {other:?}"),
                        },
                    })),
                };
            }
            Op::ReadBack(call) => check_read_back(&cquery, &built.rust, &last, *call),
        }
    }
});
