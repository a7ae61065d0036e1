//! Checks of the path read-back functions (`navstar_query_path_info`,
//! `navstar_query_path_details`, `navstar_query_path_corridor`,
//! `navstar_query_path_arcs`) against the last path
//! the Rust API found for the same call, and against what the docs promise of any path.

use arbitrary::Arbitrary;
use navstar::ffi::{
    NAVSTAR_CORNER_AREA_CHANGE, NAVSTAR_CORNER_END, NAVSTAR_CORNER_LINK_END,
    NAVSTAR_CORNER_LINK_START, NAVSTAR_CORNER_START, NAVSTAR_NO_LINK, NavstarCornerDetail,
    NavstarPathArc,
};
use navstar::glam::Vec3;
use navstar::{ARC_SEGMENTS, MAX_AREAS, NavMesh, PathOptions};

use crate::calls::{
    Fault, c_path_arcs, c_path_corridor, c_path_details, c_path_info, check_faults,
};
use crate::{CQuery, ListAnswer, ListBuffers, NO_PATH, NULL_ARGUMENT, OK, RustPath};

/// The buffers of a read-back call.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct BuffersIn {
    /// Room for `capacity % 40` items (exhausted input: 32).
    pub capacity: u8,
    /// The array is NULL.
    pub out_null: bool,
    /// `out_count` is NULL.
    pub count_null: bool,
}

impl BuffersIn {
    /// The buffers to pass.
    pub fn get(self) -> ListBuffers {
        ListBuffers {
            capacity: if self.capacity == 0 {
                32
            } else {
                u32::from(self.capacity % 40)
            },
            out_null: self.out_null,
            count_null: self.count_null,
        }
    }

    /// The faults these buffers inject (`out` names the array argument).
    pub fn faults(self, out: &'static str) -> Vec<Fault> {
        let b = self.get();
        let mut faults = Vec::new();
        if b.count_null {
            faults.push((NULL_ARGUMENT, "out_count"));
        }
        if b.out_null && b.capacity > 0 {
            faults.push((NULL_ARGUMENT, out));
        }
        faults
    }
}

/// One read-back call.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum ReadBack {
    /// `navstar_query_path_info`.
    Info {
        /// `query` NULL.
        query_null: bool,
        /// `out_info` NULL.
        out_null: bool,
    },
    /// `navstar_query_path_details`.
    Details {
        /// `query` NULL.
        query_null: bool,
        /// The buffers.
        buffers: BuffersIn,
    },
    /// `navstar_query_path_corridor`.
    Corridor {
        /// `query` NULL.
        query_null: bool,
        /// The buffers.
        buffers: BuffersIn,
    },
    /// `navstar_query_path_arcs`.
    Arcs {
        /// `query` NULL.
        query_null: bool,
        /// The buffers.
        buffers: BuffersIn,
    },
}

/// What the last path call on a query left for the read-back functions.
pub enum LastCall {
    /// No path: none was made, or the last path call failed.
    Nothing,
    /// The path it found.
    Path(Box<LastPath>),
}

/// The last path a query found, as the Rust API found it, with its options.
pub struct LastPath {
    /// The path.
    pub path: RustPath,
    /// The options it was found with.
    pub options: PathOptions,
}

/// Runs a read-back call on `query` and checks it: injected faults give their errors;
/// without a last path (none made, or the last path call failed) the answer is
/// `NAVSTAR_ERROR_NO_PATH`; else the answer equals the Rust API's for the same call, bit
/// for bit, and keeps what the docs promise of any path (see [`check_details`] and
/// [`check_corridor`]).
pub fn check_read_back(query: &CQuery, mesh: &NavMesh, last: &LastCall, call: ReadBack) {
    let handle = |null: bool| (!null).then_some(query);
    match call {
        ReadBack::Info {
            query_null,
            out_null,
        } => {
            let answer = c_path_info(handle(query_null), out_null);
            let mut faults = Vec::new();
            if query_null {
                faults.push((NULL_ARGUMENT, "query"));
            }
            if out_null {
                faults.push((NULL_ARGUMENT, "out_info"));
            }
            if check_faults(
                "navstar_query_path_info",
                answer.status,
                &answer.message,
                &faults,
            ) {
                return;
            }
            let last = match last {
                LastCall::Nothing => {
                    assert_eq!(answer.status, NO_PATH, "{}", answer.message);
                    return;
                }
                LastCall::Path(last) => last,
            };
            assert_eq!(answer.status, OK, "{}", answer.message);
            let info = answer.info.unwrap();
            let path = &last.path;
            assert_eq!(info.point_count as usize, path.corners.len());
            assert_eq!(info.polygon_count as usize, path.corridor.len());
            assert_eq!(info.status, path.status.into());
            assert_eq!(info.length.to_bits(), path.length.to_bits(), "{info:?}");
            assert_eq!(info.cost.to_bits(), path.cost.to_bits(), "{info:?}");
            check_length_and_cost(mesh, last);
        }
        ReadBack::Details {
            query_null,
            buffers,
        } => {
            let answer = c_path_details(handle(query_null), buffers.get());
            if let Some(last) = list_faults(
                "navstar_query_path_details",
                &answer,
                query_null,
                buffers,
                "out_details",
                last,
            ) {
                let path = &last.path;
                let want: Vec<NavstarCornerDetail> = path.details.iter().map(c_detail).collect();
                assert_eq!(answer.count as usize, want.len());
                assert_eq!(answer.items[..], want[..answer.items.len()]);
                check_details(mesh, &want);
            }
        }
        ReadBack::Corridor {
            query_null,
            buffers,
        } => {
            let answer = c_path_corridor(handle(query_null), buffers.get());
            if let Some(last) = list_faults(
                "navstar_query_path_corridor",
                &answer,
                query_null,
                buffers,
                "out_polygons",
                last,
            ) {
                let corridor = &last.path.corridor;
                assert_eq!(answer.count as usize, corridor.len());
                assert_eq!(answer.items[..], corridor[..answer.items.len()]);
                check_corridor(mesh, corridor, &last.options);
            }
        }
        ReadBack::Arcs {
            query_null,
            buffers,
        } => {
            let answer = c_path_arcs(handle(query_null), buffers.get());
            if let Some(last) = list_faults(
                "navstar_query_path_arcs",
                &answer,
                query_null,
                buffers,
                "out_arcs",
                last,
            ) {
                let want: Vec<NavstarPathArc> = last.path.arcs.iter().map(c_arc).collect();
                assert_eq!(answer.count as usize, want.len());
                assert_eq!(answer.items[..], want[..answer.items.len()]);
                check_arcs(mesh, &last.path.corners, &want, &last.options);
            }
        }
    }
}

/// The C form of a turn round a wall corner, as the header documents it.
pub fn c_arc(a: &navstar::PathArc) -> NavstarPathArc {
    NavstarPathArc {
        first_point: a.first_corner,
        last_point: a.last_corner,
        centre: a.centre.to_array(),
        radius: a.radius,
    }
}

/// What the docs promise of a path's turns: none without an agent radius above the
/// mesh's baked one; else in path order, apart, inside the path (never the first or
/// last point), with the radius the agent radius exceeds the baked one by, each centre a
/// vertex of the mesh, and each point of a turn between that radius and the octagon's
/// reach from it in the ground plane.
pub fn check_arcs(
    mesh: &NavMesh,
    corners: &[Vec3],
    arcs: &[NavstarPathArc],
    options: &PathOptions,
) {
    let erosion = options.agent_radius - mesh.agent_radius();
    if erosion <= 0.0 {
        assert!(arcs.is_empty(), "{arcs:?} without a radius");
        return;
    }
    let up = mesh.up_axis();
    let reach = erosion / (std::f32::consts::PI / ARC_SEGMENTS as f32).cos();
    let mut after = 0;
    for arc in arcs {
        assert!(
            arc.first_point > after
                && arc.first_point <= arc.last_point
                && (arc.last_point as usize) + 1 < corners.len(),
            "{arc:?} out of order or not inside {} points",
            corners.len()
        );
        after = arc.last_point;
        assert_eq!(arc.radius.to_bits(), erosion.to_bits(), "{arc:?}");
        let centre = Vec3::from(arc.centre);
        assert!(
            mesh.vertices().contains(&centre),
            "{arc:?}: the centre is no vertex of the mesh"
        );
        let scale = centre.abs().max_element().max(1.0);
        let slack = 1e-4 * scale.max(erosion);
        for i in arc.first_point..=arc.last_point {
            let d = up.ground(corners[i as usize]).distance(up.ground(centre));
            assert!(
                d >= erosion - slack && d <= reach + slack,
                "point {i} at {d} from the centre of {arc:?}"
            );
        }
    }
}

/// Judges the faults and the "no last path" rule of the list read-backs; returns the
/// last path when the answer is left to judge against it.
fn list_faults<'a, T>(
    function: &str,
    answer: &ListAnswer<T>,
    query_null: bool,
    buffers: BuffersIn,
    out: &'static str,
    last: &'a LastCall,
) -> Option<&'a LastPath> {
    let mut faults = buffers.faults(out);
    if query_null {
        faults.push((NULL_ARGUMENT, "query"));
    }
    if check_faults(function, answer.status, &answer.message, &faults) {
        return None;
    }
    match last {
        LastCall::Nothing => {
            assert_eq!(answer.status, NO_PATH, "{}", answer.message);
            None
        }
        LastCall::Path(last) => Some(last),
    }
}

/// The C form of a corner detail, as the header documents it.
pub fn c_detail(d: &navstar::CornerDetail) -> NavstarCornerDetail {
    NavstarCornerDetail {
        flags: u32::from(d.flags.bits()),
        area: u32::from(d.area),
        link: d.link.unwrap_or(NAVSTAR_NO_LINK),
    }
}

/// What the docs promise of a path's corner details: only the documented flag bits; the
/// first corner and only it flagged START, the last and only it END; a link index
/// exactly on corners flagged LINK_START or LINK_END, below the mesh's link count; a
/// LINK_START corner followed by the LINK_END corner of the same link; areas below 64.
pub fn check_details(mesh: &NavMesh, details: &[NavstarCornerDetail]) {
    let known = NAVSTAR_CORNER_START
        | NAVSTAR_CORNER_END
        | NAVSTAR_CORNER_LINK_START
        | NAVSTAR_CORNER_LINK_END
        | NAVSTAR_CORNER_AREA_CHANGE;
    let last = details.len() - 1;
    let at_link = NAVSTAR_CORNER_LINK_START | NAVSTAR_CORNER_LINK_END;
    for (i, d) in details.iter().enumerate() {
        assert_eq!(d.flags & !known, 0, "corner {i}: {details:?}");
        assert_eq!(
            d.flags & NAVSTAR_CORNER_START != 0,
            i == 0,
            "corner {i}: {details:?}"
        );
        assert_eq!(
            d.flags & NAVSTAR_CORNER_END != 0,
            i == last,
            "corner {i}: {details:?}"
        );
        assert!((d.area as usize) < MAX_AREAS, "corner {i}: {details:?}");
        assert_eq!(
            d.flags & at_link != 0,
            d.link != NAVSTAR_NO_LINK,
            "corner {i}: {details:?}"
        );
        if d.link != NAVSTAR_NO_LINK {
            assert!(d.link < mesh.link_count(), "corner {i}: {details:?}");
        }
        if d.flags & NAVSTAR_CORNER_LINK_START != 0 {
            let next = details.get(i + 1).expect("a path ends with a link start");
            assert!(
                next.flags & NAVSTAR_CORNER_LINK_END != 0 && next.link == d.link,
                "corner {i}: {details:?}"
            );
        }
    }
}

/// What the docs promise of a corridor: polygons of the mesh that the filter admits
/// (under the current flags), each step to a neighbour across an edge unless the mesh
/// has off-mesh links.
pub fn check_corridor(mesh: &NavMesh, corridor: &[u32], options: &PathOptions) {
    for &p in corridor {
        assert!(p < mesh.polygon_count(), "{corridor:?}");
        assert!(
            options.filter.admits(mesh.polygon_flags(p)),
            "polygon {p} of the corridor {corridor:?} is refused by the filter"
        );
    }
    if mesh.link_count() == 0 {
        for w in corridor.windows(2) {
            assert!(
                mesh.polygon_neighbours(w[0]).any(|n| n == Some(w[1])),
                "corridor {corridor:?}: {} does not border {}",
                w[0],
                w[1]
            );
        }
    }
}

/// The length of the path, independently in f64, and (no links) a cost
/// no lower than the length times the cheapest area cost.
fn check_length_and_cost(mesh: &NavMesh, last: &LastPath) {
    let path = &last.path;
    let length: f64 = path
        .corners
        .windows(2)
        .map(|w| w[0].as_dvec3().distance(w[1].as_dvec3()))
        .sum();
    let tol = 1e-4 * length.max(1.0);
    assert!(
        (f64::from(path.length) - length).abs() <= tol,
        "length {} of a path {length} long",
        path.length
    );
    assert!(
        path.cost.is_finite() && path.cost >= 0.0,
        "cost {}",
        path.cost
    );
    if mesh.link_count() == 0 {
        let least = length * f64::from(last.options.filter.min_cost());
        assert!(
            f64::from(path.cost) >= least - 1e-4 * least.max(1.0),
            "cost {} below the length {length} times the cheapest area cost",
            path.cost
        );
    }
}
