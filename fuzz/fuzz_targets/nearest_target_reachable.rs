//! Fuzzes `navstar_find_nearest_target` and `navstar_query_reachable_polygons` on meshes
//! with areas, flags and off-mesh links, with any options, filters, goal lists (NaN,
//! far, unreachable, NULL, counts above what is given) and buffers, interleaved with
//! the path read-back functions on the same C query.
//!
//! Each answer must equal, bit for bit, the Rust API's for the same call on a fresh query
//! (goal index, points, reached polygons with parents and costs), keep the buffer rules,
//! and keep what the docs promise (see `navstar_fuzz::searches`): a nearest-target path
//! is a complete path from the start to the chosen goal, and `NAVSTAR_ERROR_NO_PATH`
//! means `navstar_find_path` reaches no goal either; reached polygons come cheapest
//! first, within the bound, admitted by the filter, each after its parent, and with no
//! bound exactly the connected admitted polygons. The read-backs after a nearest-target
//! call describe its path; a reachable-polygons call in between does not change them.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use navstar_fuzz::MeshOps;
use navstar_fuzz::readback::{LastCall, ReadBack, check_read_back};
use navstar_fuzz::searches::{ReachIn, TargetIn, compare_nearest_target, compare_reachable};

#[derive(Arbitrary, Debug)]
enum Op {
    Target(TargetIn),
    Reach(ReachIn),
    ReadBack(ReadBack),
}

fuzz_target!(|input: MeshOps<Op>| {
    let Some(built) = input.mesh.build() else {
        return;
    };
    let cquery = built.c.query();
    let mut last = LastCall::Nothing;
    for op in input.ops.iter().take(10) {
        match op {
            Op::Target(call) => last = compare_nearest_target(&cquery, &built.rust, call),
            Op::Reach(call) => compare_reachable(&cquery, &built.rust, call),
            Op::ReadBack(call) => check_read_back(&cquery, &built.rust, &last, *call),
        }
    }
});
