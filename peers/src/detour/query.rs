//! [`DetourQuery`]: a Detour path query (`dtNavMeshQuery`) with its buffers.

use std::fmt;
use std::ptr::{self, NonNull};

use super::{DetourError, DetourMesh, MAX_NODES, MAX_PATH, from_detour, sys, to_detour};

/// A Detour path query (`dtNavMeshQuery`) with its buffers, borrowing its mesh.
pub struct DetourQuery<'m> {
    mesh: &'m DetourMesh,
    query: NonNull<sys::dtNavMeshQuery>,
    filter: Box<sys::dtQueryFilter>,
    polys: Vec<sys::dtPolyRef>,
    straight: Vec<f32>,
    /// Half size of the box (Detour axes: x, y up, z) searched around the start and goal
    /// for the nearest polygon. Default `[2, 4, 2]`, RecastDemo's pick extent.
    pub half_extents: [f32; 3],
}

impl fmt::Debug for DetourQuery<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DetourQuery")
            .field("mesh", self.mesh)
            .field("half_extents", &self.half_extents)
            .finish_non_exhaustive()
    }
}

impl Drop for DetourQuery<'_> {
    fn drop(&mut self) {
        // SAFETY: `query` came from dtAllocNavMeshQuery and is freed only here.
        unsafe { sys::dtFreeNavMeshQuery(self.query.as_ptr()) };
    }
}

impl<'m> DetourQuery<'m> {
    /// A query over `mesh` with [`MAX_NODES`] search nodes and [`MAX_PATH`]-sized
    /// buffers.
    ///
    /// # Errors
    /// [`DetourError::OutOfMemory`] or the status of `dtNavMeshQuery::init`.
    pub fn new(mesh: &'m DetourMesh) -> Result<Self, DetourError> {
        // SAFETY: plain allocation call without arguments.
        let query = unsafe { sys::dtAllocNavMeshQuery() };
        let query = NonNull::new(query).ok_or(DetourError::OutOfMemory("dtNavMeshQuery"))?;
        // SAFETY: `query` is fresh; `mesh.nav` is an initialised dtNavMesh that outlives
        // the query (the query borrows `mesh` for 'm).
        let status =
            unsafe { sys::dtNavMeshQuery_init(query.as_ptr(), mesh.nav.as_ptr(), MAX_NODES) };
        if status & sys::DT_SUCCESS == 0 {
            // SAFETY: `query` is ours and not referenced elsewhere.
            unsafe { sys::dtFreeNavMeshQuery(query.as_ptr()) };
            return Err(DetourError::Status("dtNavMeshQuery::init", status));
        }
        // SAFETY: the constructor only fills the area costs (1.0) and the include (all)
        // and exclude (none) flags; the filter has no vtable in this build
        // (DT_VIRTUAL_QUERYFILTER is not defined), so moving it is fine.
        let filter = Box::new(unsafe { sys::dtQueryFilter::new() });
        Ok(DetourQuery {
            mesh,
            query,
            filter,
            polys: vec![0; MAX_PATH],
            straight: vec![0.0; MAX_PATH * 3],
            half_extents: [2.0, 4.0, 2.0],
        })
    }

    /// Sets the polygon flags a path may use and those it must avoid (Detour's filter;
    /// every polygon has flags `1`).
    pub fn set_flags(&mut self, include: u16, exclude: u16) {
        self.filter.m_includeFlags = include;
        self.filter.m_excludeFlags = exclude;
    }

    /// The polygon nearest to `p` (Detour coordinates) within `half_extents`, and the
    /// nearest point on it.
    fn nearest(&self, p: [f32; 3]) -> Option<(sys::dtPolyRef, [f32; 3])> {
        let mut poly: sys::dtPolyRef = 0;
        let mut nearest = [0f32; 3];
        // SAFETY: `query` is initialised; the point, extents and out-pointers are valid
        // arrays of 3 floats; `filter` lives as long as `self`.
        let status = unsafe {
            sys::dtNavMeshQuery_findNearestPoly(
                self.query.as_ptr(),
                p.as_ptr(),
                self.half_extents.as_ptr(),
                &*self.filter,
                &mut poly,
                nearest.as_mut_ptr(),
            )
        };
        (status & sys::DT_SUCCESS != 0 && poly != 0).then_some((poly, nearest))
    }

    /// The nodes in Detour's node pool: after [`DetourQuery::find_path`], every polygon
    /// its `findPath` visited (Detour's count of search nodes; it has no separate count
    /// of expansions). 0 before the first query.
    pub fn last_node_count(&self) -> usize {
        // `dtNodePool` is opaque in the bindings. Its fields (DetourNode.h, no virtual
        // functions) are `dtNode* m_nodes; dtNodeIndex* m_first; dtNodeIndex* m_next;
        // const int m_maxNodes; const int m_hashSize; int m_nodeCount;`: the count is the
        // int after three pointers and two ints.
        const COUNT_OFFSET: usize = 3 * std::mem::size_of::<*const u8>() + 2 * 4;
        // SAFETY: `query` is initialised (by `new`), so `m_nodePool` points at the live
        // node pool that `dtNavMeshQuery::init` allocated, which this query owns.
        let pool = unsafe { (*self.query.as_ptr()).m_nodePool };
        if pool.is_null() {
            return 0;
        }
        // SAFETY: `pool` is a live `dtNodePool` (above); `m_nodeCount` lies at
        // COUNT_OFFSET inside it (layout above), is an aligned `int`, and nothing writes
        // it while `&self` is borrowed (queries take `&mut self`).
        let count = unsafe { pool.cast::<u8>().add(COUNT_OFFSET).cast::<i32>().read() };
        usize::try_from(count).unwrap_or(0)
    }

    /// The path from `start` to `goal` (navstar world coordinates), as Detour finds it:
    /// both points snapped with `findNearestPoly`, the polygon corridor from `findPath`
    /// (A* through edge midpoints), corners from `findStraightPath`. The first corner is
    /// the snapped start, the last the snapped goal.
    ///
    /// `None` when a point has no polygon within [`DetourQuery::half_extents`], when the
    /// goal cannot be reached (Detour's partial result, which includes running out of
    /// search nodes or corridor space), or when a call fails.
    pub fn find_path(&mut self, start: [f32; 3], goal: [f32; 3]) -> Option<Vec<[f32; 3]>> {
        let up = self.mesh.up;
        let (start_ref, start_pt) = self.nearest(to_detour(up, start))?;
        let (goal_ref, goal_pt) = self.nearest(to_detour(up, goal))?;
        let mut count = 0i32;
        // SAFETY: `query` is initialised; refs come from findNearestPoly on this mesh;
        // the points are arrays of 3 floats; `polys` holds MAX_PATH refs, the maximum
        // passed; `count` is a valid out-pointer.
        let status = unsafe {
            sys::dtNavMeshQuery_findPath(
                self.query.as_ptr(),
                start_ref,
                goal_ref,
                start_pt.as_ptr(),
                goal_pt.as_ptr(),
                &*self.filter,
                self.polys.as_mut_ptr(),
                &mut count,
                MAX_PATH as i32,
            )
        };
        if status & sys::DT_SUCCESS == 0 || status & sys::DT_PARTIAL_RESULT != 0 || count <= 0 {
            return None;
        }
        let mut corners = 0i32;
        // SAFETY: `polys[..count]` was filled by findPath; `straight` holds MAX_PATH
        // points of 3 floats, the maximum passed; the optional flags and refs outputs are
        // null, which Detour allows.
        let status = unsafe {
            sys::dtNavMeshQuery_findStraightPath(
                self.query.as_ptr(),
                start_pt.as_ptr(),
                goal_pt.as_ptr(),
                self.polys.as_ptr(),
                count,
                self.straight.as_mut_ptr(),
                ptr::null_mut(),
                ptr::null_mut(),
                &mut corners,
                MAX_PATH as i32,
                0,
            )
        };
        if status & sys::DT_SUCCESS == 0 || corners <= 0 {
            return None;
        }
        Some(
            self.straight[..corners as usize * 3]
                .chunks_exact(3)
                .map(|c| from_detour(up, [c[0], c[1], c[2]]))
                .collect(),
        )
    }
}
