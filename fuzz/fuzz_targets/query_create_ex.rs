//! Fuzzes `navstar_query_create_ex` (options with any `struct_size` and node limit, NULL
//! arguments) and the queries it makes: paths with any options under the node limit,
//! against the Rust API (`Query::with_max_nodes`), and `navstar_query_scratch_bytes`.
//!
//! Checks: a bad `struct_size` is INVALID_ARGUMENT naming it, NULL handles are
//! NULL_ARGUMENT naming them, `*out_query` is NULL after any error; a new query holds
//! no search memory; each path equals, bit for bit, the Rust answer of a fresh query
//! with the same limit (`NAVSTAR_PARTIAL_NODE_LIMIT` exactly when Rust says
//! `PathStatus::NodeLimit`, which never happens without a limit) and keeps every
//! documented promise of a path; the C query's scratch memory never shrinks and is at
//! least what the fresh Rust query needed.
#![no_main]

use std::ptr::{self, NonNull};

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use navstar::ffi::{
    NavstarQuery, NavstarQueryOptions, navstar_query_create_ex, navstar_query_options_default,
    navstar_query_scratch_bytes,
};
use navstar::{PathStatus, Query};
use navstar_fuzz::input::Built;
use navstar_fuzz::{
    CQuery, INVALID_ARGUMENT, MeshOps, NULL_ARGUMENT, OK, PointIn, QueryOpts, SmallU32,
    check_status_and_message, compare_query,
};

#[derive(Arbitrary, Debug)]
struct Create {
    options: OptionsIn,
    /// `% 4 == 0`: pass NULL options instead.
    null_options: u8,
    /// `% 8`: 0 passes a NULL mesh, 1 a NULL `out_query`, the rest neither (so that
    /// most inputs make a query and search with it).
    fault: u8,
}

#[derive(Arbitrary, Debug)]
struct OptionsIn {
    struct_size: SizeIn,
    max_nodes: LimitIn,
}

/// `max_nodes`: mostly a few nodes (the fuzzed meshes are small), sometimes any value.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum LimitIn {
    /// 1 to 16.
    Few(u8),
    /// 1 to 16 again, to make them likelier.
    AlsoFew(u8),
    Any(SmallU32),
}

impl LimitIn {
    fn value(self) -> u32 {
        match self {
            LimitIn::Few(n) | LimitIn::AlsoFew(n) => 1 + u32::from(n % 16),
            LimitIn::Any(n) => n.value(),
        }
    }
}

/// `struct_size`: mostly the current size, sometimes any other.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum SizeIn {
    Current,
    AlsoCurrent,
    StillCurrent,
    Other(SmallU32),
}

#[derive(Arbitrary, Debug)]
struct Path {
    start: PointIn,
    goal: PointIn,
    options: QueryOpts,
    capacity: u8,
}

#[derive(Arbitrary, Debug)]
struct Input {
    create: Create,
    mesh: MeshOps<Path>,
}

/// Calls `navstar_query_create_ex` as `create` says; checks the status, the message and
/// `*out_query`. Returns the query and the node limit when it was made.
fn create_query(built: &Built, create: &Create) -> Option<(CQuery, usize)> {
    let given = (!create.null_options.is_multiple_of(4)).then_some(&create.options);
    let options = given.map(|o| NavstarQueryOptions {
        struct_size: match o.struct_size {
            SizeIn::Other(size) => size.value(),
            _ => size_of::<NavstarQueryOptions>() as u32,
        },
        max_nodes: o.max_nodes.value(),
    });
    let (mesh_null, out_null) = (create.fault.is_multiple_of(8), create.fault % 8 == 1);
    let mut out: *mut NavstarQuery = NonNull::dangling().as_ptr();
    let out_ptr = if out_null {
        ptr::null_mut()
    } else {
        ptr::from_mut(&mut out)
    };
    let mesh_ptr = if mesh_null {
        ptr::null()
    } else {
        built.c.as_ptr()
    };
    // SAFETY: the mesh NULL or live; the options NULL or a full struct; `out_ptr` NULL
    // or writable.
    let status = unsafe {
        navstar_query_create_ex(
            mesh_ptr,
            options.as_ref().map_or(ptr::null(), ptr::from_ref),
            out_ptr,
        )
    };
    let message = check_status_and_message("navstar_query_create_ex", status);
    let bad_size =
        options.is_some_and(|o| o.struct_size as usize != size_of::<NavstarQueryOptions>());
    let fault = if out_null {
        Some((NULL_ARGUMENT, "out_query"))
    } else if mesh_null {
        Some((NULL_ARGUMENT, "mesh"))
    } else if bad_size {
        Some((INVALID_ARGUMENT, "options->struct_size"))
    } else {
        None
    };
    if let Some((want, name)) = fault {
        assert_eq!(status, want, "{message}");
        assert!(message.contains(name), "{message:?} does not name {name}");
        if !out_null {
            assert!(out.is_null(), "*out_query is not NULL after an error");
        }
        return None;
    }
    assert_eq!(status, OK, "{message}");
    let query = CQuery::from_raw(NonNull::new(out).expect("NAVSTAR_OK with a NULL query"));
    let limit = match options.map_or(0, |o| o.max_nodes) {
        0 => Query::DEFAULT_MAX_NODES,
        n => n as usize,
    };
    Some((query, limit))
}

fuzz_target!(|input: Input| {
    // The defaults are the current size and no limit.
    let defaults = navstar_query_options_default();
    assert_eq!(
        defaults.struct_size as usize,
        size_of::<NavstarQueryOptions>()
    );
    assert_eq!(defaults.max_nodes, 0);
    let Some(built) = input.mesh.mesh.build() else {
        return;
    };
    let Some((mut cquery, limit)) = create_query(&built, &input.create) else {
        return;
    };
    let scratch = |q: &CQuery| {
        // SAFETY: a live query used by this thread.
        unsafe { navstar_query_scratch_bytes(q.as_ptr()) }
    };
    assert_eq!(scratch(&cquery), 0, "a new query holds search memory");
    let mut held = 0;
    for path in input.mesh.ops.iter().take(8) {
        let mut rquery = Query::new(&built.rust).with_max_nodes(limit);
        let rust = compare_query(
            &mut cquery,
            &mut rquery,
            path.start.resolve(&built.rust),
            path.goal.resolve(&built.rust),
            &path.options,
            u32::from(path.capacity % 24),
            false,
        );
        if rust.is_some_and(|r| r.status == PathStatus::NodeLimit) {
            assert_ne!(
                limit,
                Query::DEFAULT_MAX_NODES,
                "a node limit without a limit"
            );
        }
        let now = scratch(&cquery);
        assert!(
            now >= held,
            "the scratch memory shrank from {held} to {now}"
        );
        assert!(
            now >= rquery.scratch_bytes() as u64,
            "C holds {now} bytes, less than the {} a fresh Rust query needed",
            rquery.scratch_bytes()
        );
        held = now;
    }
});
