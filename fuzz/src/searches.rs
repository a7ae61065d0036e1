//! C-versus-Rust comparisons of the searches added after `navstar_find_path`:
//! `navstar_query_reachable_polygons` and `navstar_find_nearest_target`, each with the
//! independent checks of what the docs promise.

use std::collections::{HashSet, VecDeque};

use arbitrary::Arbitrary;
use navstar::ffi::{NAVSTAR_NO_POLYGON, NavstarReachedPolygon};
use navstar::glam::Vec3;
use navstar::{NavMesh, PathOptions, PathStatus, Query, QueryError, ReachedPolygon};

use crate::calls::{Fault, c_find_nearest_target, c_reachable, check_faults, point_fault};
use crate::readback::{BuffersIn, LastCall, LastPath, c_detail, check_corridor, check_details};
use crate::{
    CQuery, Coord, Expect, INVALID_ARGUMENT, NULL_ARGUMENT, OptionsIn, PointIn, QueryOpts,
    RustPath, check_path, check_same_path, query_status,
};

/// The faults path options inject at the boundary (a rejected struct), and the Rust
/// options otherwise.
fn options_of(options: &QueryOpts, faults: &mut Vec<Fault>) -> Option<PathOptions> {
    match OptionsIn::expected(options) {
        Expect::Accept(o) => Some(o),
        Expect::Reject => {
            faults.push((INVALID_ARGUMENT, "options"));
            None
        }
        Expect::Unknown(_) => unreachable!("every field of the options is decoded"),
    }
}

/// A `navstar_query_reachable_polygons` call.
#[derive(Arbitrary, Debug, Clone)]
pub struct ReachIn {
    /// Where the flood starts.
    pub start: PointIn,
    /// The cost bound (`None`: infinity).
    pub max_cost: Option<Coord>,
    /// Options and filter.
    pub options: QueryOpts,
    /// The output buffers.
    pub buffers: BuffersIn,
}

/// Runs a reachable-polygons call through both APIs (a fresh Rust query on `mesh`) and
/// checks the C answer against the Rust one, bit for bit, and the Rust list against the
/// docs: the snapped start polygon first with no parent, cheapest first, costs within
/// `[0, max_cost]`, each polygon once and admitted by the filter, each parent listed
/// before its child (a neighbour unless the mesh has links), and with an infinite bound
/// and no links exactly the polygons connected to the start through admitted ones.
pub fn compare_reachable(cquery: &CQuery, mesh: &NavMesh, call: &ReachIn) {
    let start = call.start.resolve(mesh);
    let max_cost = call.max_cost.map_or(f32::INFINITY, Coord::value);
    let c_options = call.options.to_c();
    let buffers = call.buffers.get();
    let answer = c_reachable(Some(cquery), start, max_cost, &c_options, buffers);
    let mut faults = call.buffers.faults("out_polygons");
    faults.extend(point_fault(start, "start"));
    if max_cost.is_nan() || max_cost < 0.0 {
        faults.push((INVALID_ARGUMENT, "max_cost"));
    }
    let options = options_of(&call.options, &mut faults);
    // The C function validates the whole options struct; the Rust flood reads only the
    // snapping distance and the filter, so a bad heuristic weight is a C-side fault.
    if let Some(o) = &options
        && !(o.heuristic_weight.is_finite() && o.heuristic_weight >= 0.0)
    {
        faults.push((INVALID_ARGUMENT, "heuristic_weight"));
    }
    const F: &str = "navstar_query_reachable_polygons";
    if check_faults(F, answer.status, &answer.message, &faults) {
        return;
    }
    let (start, options) = (Vec3::from(start.unwrap()), options.unwrap());
    let mut query = Query::new(mesh);
    let reached = match query.reachable_polygons_for_agent(
        start,
        max_cost,
        &options.filter,
        options.max_snap_distance,
        options.agent_radius,
    ) {
        Err(e) => {
            assert_eq!(answer.status, query_status(&e), "Rust said {e}");
            return;
        }
        Ok(reached) => reached.to_vec(),
    };
    assert_eq!(answer.count as usize, reached.len());
    let c_form = |r: &ReachedPolygon| NavstarReachedPolygon {
        polygon: r.polygon,
        parent: r.parent.unwrap_or(NAVSTAR_NO_POLYGON),
        cost: r.cost,
    };
    for (c, r) in answer.items.iter().zip(&reached) {
        let want = c_form(r);
        assert_eq!(
            (c.polygon, c.parent, c.cost.to_bits()),
            (want.polygon, want.parent, want.cost.to_bits()),
            "the C ABI and the Rust API disagree"
        );
    }
    check_reached(mesh, start, max_cost, &options, &reached);
}

/// The docs' promises of a reachable-polygons answer (see [`compare_reachable`]).
fn check_reached(
    mesh: &NavMesh,
    start: Vec3,
    max_cost: f32,
    options: &PathOptions,
    reached: &[ReachedPolygon],
) {
    let filter = &options.filter;
    let admitted = |p: u32| filter.admits(mesh.polygon_flags(p));
    // With an agent radius the flood starts where the disc fits, and covers only the
    // polygons the disc reaches.
    let disc = crate::radius::applies(mesh, options);
    let from = mesh
        .nearest_point_for_agent(start, f32::INFINITY, Some(filter), options.agent_radius)
        .expect("the flood succeeded, so the start's snap does")
        .expect("a flood without an admitted polygon");
    let first = reached
        .first()
        .expect("the start polygon is always reached");
    assert_eq!(first.polygon, from.polygon, "{reached:?}");
    assert_eq!(first.parent, None, "{reached:?}");
    let mut seen = HashSet::new();
    for (i, r) in reached.iter().enumerate() {
        assert!(r.polygon < mesh.polygon_count(), "{r:?}");
        assert!(admitted(r.polygon), "{r:?}: refused by the filter");
        assert!(seen.insert(r.polygon), "{r:?} listed twice");
        assert!(
            r.cost.is_finite() && r.cost >= 0.0 && r.cost <= max_cost,
            "{r:?}: cost beyond [0, {max_cost}]"
        );
        if i > 0 {
            assert!(
                reached[i - 1].cost <= r.cost,
                "not cheapest first: {reached:?}"
            );
            let parent = r.parent.expect("only the start polygon has no parent");
            assert!(
                reached[..i].iter().any(|q| q.polygon == parent),
                "{r:?}: its parent is not listed before it"
            );
            if mesh.link_count() == 0 {
                assert!(
                    mesh.polygon_neighbours(parent)
                        .any(|n| n == Some(r.polygon)),
                    "{r:?}: entered from a polygon that does not border it"
                );
            }
        }
    }
    if max_cost == f32::INFINITY && mesh.link_count() == 0 && !disc {
        let mut connected = HashSet::from([from.polygon]);
        let mut queue = VecDeque::from([from.polygon]);
        while let Some(p) = queue.pop_front() {
            for n in mesh.polygon_neighbours(p).flatten() {
                if admitted(n) && connected.insert(n) {
                    queue.push_back(n);
                }
            }
        }
        assert_eq!(
            seen, connected,
            "reached polygons vs the connected admitted polygons"
        );
    }
}

/// How many goals to pass.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum GoalCount {
    /// All of them.
    All,
    /// A few less.
    Fewer(u8),
    /// A count above 2^30 (with NULL goals).
    Huge(u32),
}

/// A `navstar_find_nearest_target` call.
#[derive(Arbitrary, Debug, Clone)]
pub struct TargetIn {
    /// The start.
    pub start: PointIn,
    /// Up to 8 goals (NULL entries: NaN).
    pub goals: Vec<PointIn>,
    /// `goals` NULL.
    pub goals_null: bool,
    /// The count passed.
    pub count: GoalCount,
    /// Options and filter.
    pub options: QueryOpts,
    /// The point buffers.
    pub buffers: BuffersIn,
    /// `out_goal` NULL.
    pub goal_null: bool,
}

/// Runs a nearest-target call through both APIs (a fresh Rust query on `mesh`) and
/// checks: the C answer equals the Rust one (status, goal index, points bit for bit);
/// the chosen goal is one of those passed and the path to it keeps every promise of a
/// complete path from the start to it ([`check_path`]), its details and corridor those
/// of any path; `NAVSTAR_ERROR_NO_PATH` only when no goal can be reached by
/// `navstar_find_path` either (but see [`pinched`]). Returns what the query now holds
/// for the read-back functions.
pub fn compare_nearest_target(cquery: &CQuery, mesh: &NavMesh, call: &TargetIn) -> LastCall {
    let start = call.start.resolve(mesh);
    let goals: Vec<[f32; 3]> = call
        .goals
        .iter()
        .take(8)
        .map(|g| g.resolve(mesh).unwrap_or([f32::NAN; 3]))
        .collect();
    let floats: Vec<f32> = goals.iter().flatten().copied().collect();
    let (goals_null, count) = match call.count {
        GoalCount::All => (call.goals_null, goals.len() as u32),
        GoalCount::Fewer(k) => (
            call.goals_null,
            (goals.len() as u32).saturating_sub(u32::from(k % 4)),
        ),
        // The goals must hold 3 * goal_count floats unless NULL.
        GoalCount::Huge(c) => (true, c | 0x4000_0000),
    };
    let c_options = call.options.to_c();
    let buffers = call.buffers.get();
    let answer = c_find_nearest_target(
        Some(cquery),
        start,
        (!goals_null).then_some(&floats[..]),
        count,
        &c_options,
        buffers,
        call.goal_null,
    );
    let mut faults = call.buffers.faults("out_points");
    if call.goal_null {
        faults.push((NULL_ARGUMENT, "out_goal"));
    }
    faults.extend(point_fault(start, "start"));
    if goals_null && count > 0 {
        faults.push((NULL_ARGUMENT, "goals"));
    }
    let passed = if goals_null {
        &[][..]
    } else {
        &goals[..count as usize]
    };
    if passed.iter().flatten().any(|v| !v.is_finite()) {
        faults.push((INVALID_ARGUMENT, "goal"));
    }
    let options = options_of(&call.options, &mut faults);
    if check_faults(
        "navstar_find_nearest_target",
        answer.path.status,
        &answer.message,
        &faults,
    ) {
        // A failed call forgets the query's last path, whatever argument it fails on.
        return LastCall::Nothing;
    }
    let (start, options) = (Vec3::from(start.unwrap()), options.unwrap());
    let goals: Vec<Vec3> = passed.iter().map(|&g| Vec3::from(g)).collect();
    let mut query = Query::new(mesh);
    let rust = query
        .find_nearest_target(start, &goals, &options)
        .map(|t| (t.target, RustPath::new(&t.path, Vec::new())));
    let rust = rust.map(|(goal, mut path)| {
        path.corridor = query.corridor().collect();
        (goal, path)
    });
    let capacity = buffers.capacity;
    check_same_path(
        &answer.path,
        &rust.as_ref().map(|r| r.1.clone()).map_err(Clone::clone),
        capacity,
    );
    let (goal, path) = match rust {
        Err(QueryError::NoPath) => {
            for &g in &goals {
                let mut partial = options.clone();
                partial.allow_partial = true;
                match Query::new(mesh).find_path(start, g, &partial) {
                    Err(QueryError::NotOnMesh { .. }) => {}
                    Ok(p) if p.status == PathStatus::Partial => {}
                    other => panic!("no target reachable, but find_path to {g} gave {other:?}"),
                }
            }
            return LastCall::Nothing;
        }
        Err(_) => return LastCall::Nothing,
        Ok(answer) => answer,
    };
    assert_eq!(answer.goal, Some(goal as u32));
    assert!(goal < goals.len());
    assert_eq!(path.status, PathStatus::Complete);
    let plain = Ok((path.corners.clone(), PathStatus::Complete));
    if crate::radius::applies(mesh, &options) {
        crate::radius::check_clearance(mesh, &options, &plain);
    } else {
        check_path(mesh, start, goals[goal], &options, &plain, &path.details);
    }
    let details: Vec<_> = path.details.iter().map(c_detail).collect();
    check_details(mesh, &details);
    check_corridor(mesh, &path.corridor, &options);
    LastCall::Path(Box::new(LastPath { path, options }))
}
