//! The solo-mesh Recast pipeline (rasterise, filter, compact, erode, watershed regions,
//! contours, polygon mesh) run on a triangle soup: [`build_recast_polymesh`] with
//! [`RecastSettings`].

use std::ptr::NonNull;

use super::{DetourError, sys};
use crate::formats::TriangleSoup;

/// Recast build settings, in world units unless said otherwise.
#[derive(Debug, Clone, PartialEq)]
pub struct RecastSettings {
    /// Cell size across (`cs`).
    pub cell_size: f32,
    /// Cell size up (`ch`).
    pub cell_height: f32,
    /// Agent height.
    pub agent_height: f32,
    /// Agent radius (the walkable area is eroded by it).
    pub agent_radius: f32,
    /// Highest ledge the agent climbs.
    pub agent_max_climb: f32,
    /// Steepest walkable slope, degrees.
    pub agent_max_slope: f32,
    /// Regions smaller than this many cells squared are dropped.
    pub region_min_size: f32,
    /// Regions smaller than this many cells squared are merged into neighbours.
    pub region_merge_size: f32,
    /// Longest contour edge along walls.
    pub edge_max_len: f32,
    /// Largest distance of a simplified contour from the raw one, in cells.
    pub edge_max_error: f32,
    /// Most corners per polygon.
    pub verts_per_poly: i32,
    /// Detail mesh sample distance, in cells (only for a detail mesh; not used by
    /// [`build_recast_polymesh`]).
    pub detail_sample_dist: f32,
    /// Detail mesh error, in cell heights (only for a detail mesh; not used by
    /// [`build_recast_polymesh`]).
    pub detail_sample_max_error: f32,
}

impl Default for RecastSettings {
    /// RecastDemo's defaults (`Sample::resetCommonSettings` in RecastDemo/Source/Sample.cpp
    /// of recastnavigation at commit 9f4ce64): cell size 0.3, cell height 0.2, agent
    /// height 2.0, radius 0.6, max climb 0.9, max slope 45, region min size 8, merge size
    /// 20, edge max length 12, edge max error 1.3, 6 verts per polygon, detail sample
    /// distance 6, detail max error 1.
    fn default() -> Self {
        RecastSettings {
            cell_size: 0.3,
            cell_height: 0.2,
            agent_height: 2.0,
            agent_radius: 0.6,
            agent_max_climb: 0.9,
            agent_max_slope: 45.0,
            region_min_size: 8.0,
            region_merge_size: 20.0,
            edge_max_len: 12.0,
            edge_max_error: 1.3,
            verts_per_poly: 6,
            detail_sample_dist: 6.0,
            detail_sample_max_error: 1.0,
        }
    }
}

/// A Recast polygon mesh in world coordinates (Y up).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RecastPolyMesh {
    /// Vertex positions: `bmin + (x * cs, y * ch, z * cs)` of Recast's cell coordinates.
    pub vertices: Vec<[f32; 3]>,
    /// Corner vertex indices of each polygon, in Recast's order.
    pub polygons: Vec<Vec<u32>>,
    /// Recast's grid size in cells (x, z).
    pub grid_size: (i32, i32),
}

/// An owned Recast/Detour object with its free function.
pub(super) struct Owned<T> {
    pub(super) ptr: NonNull<T>,
    pub(super) free: unsafe extern "C" fn(*mut T),
}

impl<T> Owned<T> {
    fn new(
        ptr: *mut T,
        free: unsafe extern "C" fn(*mut T),
        what: &'static str,
    ) -> Result<Self, DetourError> {
        NonNull::new(ptr)
            .map(|ptr| Owned { ptr, free })
            .ok_or(DetourError::OutOfMemory(what))
    }

    fn get(&self) -> *mut T {
        self.ptr.as_ptr()
    }
}

impl<T> Drop for Owned<T> {
    fn drop(&mut self) {
        // SAFETY: `ptr` came from the allocation function matching `free` and is freed
        // exactly once, here.
        unsafe { (self.free)(self.ptr.as_ptr()) };
    }
}

/// Checks a triangle soup before Recast reads it: not empty, indices in range, finite
/// coordinates. Returns the vertex and triangle counts.
pub(super) fn check_soup(soup: &TriangleSoup) -> Result<(usize, usize), DetourError> {
    let vert_count = soup.verts.len() / 3;
    let tri_count = soup.tris.len() / 3;
    if vert_count == 0 || tri_count == 0 {
        return Err(DetourError::Recast("input (empty soup)"));
    }
    if soup.tris.iter().any(|&i| i < 0 || i as usize >= vert_count) {
        return Err(DetourError::Recast("input (index out of range)"));
    }
    if soup.verts.iter().any(|v| !v.is_finite()) {
        return Err(DetourError::NonFinite);
    }
    Ok((vert_count, tri_count))
}

/// The bounds of a soup and its grid size in cells (`rcCalcBounds`, `rcCalcGridSize`).
pub(super) fn soup_grid(soup: &TriangleSoup, cell_size: f32) -> ([f32; 3], [f32; 3], (i32, i32)) {
    let mut bmin = [0f32; 3];
    let mut bmax = [0f32; 3];
    let (mut width, mut height) = (0i32, 0i32);
    // SAFETY: `verts` holds 3 * (len / 3) floats (the count passed); bounds and sizes
    // are valid out-pointers.
    unsafe {
        sys::rcCalcBounds(
            soup.verts.as_ptr(),
            (soup.verts.len() / 3) as i32,
            bmin.as_mut_ptr(),
            bmax.as_mut_ptr(),
        );
        sys::rcCalcGridSize(
            bmin.as_ptr(),
            bmax.as_ptr(),
            cell_size,
            &mut width,
            &mut height,
        );
    }
    (bmin, bmax, (width, height))
}

/// The heightfield one Recast run works on: its box (border included), its size in
/// cells, and the border (in cells) round the part whose polygons are kept.
#[derive(Debug, Clone, Copy)]
pub(super) struct HeightfieldFrame {
    pub(super) bmin: [f32; 3],
    pub(super) bmax: [f32; 3],
    pub(super) width: i32,
    pub(super) height: i32,
    pub(super) border: i32,
}

/// Recast's polygon mesh as it comes out of `rcBuildPolyMesh`, copied out of Recast's
/// memory: cell coordinates relative to `bmin` (the border already removed).
#[derive(Debug, Clone, Default)]
pub(super) struct RawPolyMesh {
    /// 3 cell coordinates per vertex (x, y, z).
    pub(super) verts: Vec<u16>,
    /// `2 * nvp` entries per polygon: corners (padded with `RC_MESH_NULL_IDX`), then
    /// neighbours (`0x8000 | side` for an edge on the border of a tiled build).
    pub(super) polys: Vec<u16>,
    /// Recast's area id of each polygon (`RC_WALKABLE_AREA` for plain ground).
    pub(super) areas: Vec<u8>,
    pub(super) nvp: usize,
    pub(super) bmin: [f32; 3],
    pub(super) bmax: [f32; 3],
}

impl RawPolyMesh {
    pub(super) fn polygon_count(&self) -> usize {
        self.areas.len()
    }

    /// The corner lists of the polygons (Recast's winding).
    pub(super) fn polygons(&self) -> Vec<Vec<u32>> {
        self.polys
            .chunks_exact(2 * self.nvp)
            .map(|p| {
                p[..self.nvp]
                    .iter()
                    .take_while(|&&v| v != sys::RC_MESH_NULL_IDX)
                    .map(|&v| u32::from(v))
                    .collect()
            })
            .collect()
    }
}

/// Recast's settings converted to cells, as RecastDemo's samples convert them.
#[derive(Debug, Clone, Copy)]
pub(super) struct CellSettings {
    pub(super) walkable_height: i32,
    pub(super) walkable_climb: i32,
    pub(super) walkable_radius: i32,
    pub(super) max_edge_len: i32,
    pub(super) min_region_area: i32,
    pub(super) merge_region_area: i32,
}

impl CellSettings {
    pub(super) fn new(s: &RecastSettings) -> Self {
        CellSettings {
            walkable_height: (s.agent_height / s.cell_height).ceil() as i32,
            walkable_climb: (s.agent_max_climb / s.cell_height).floor() as i32,
            walkable_radius: (s.agent_radius / s.cell_size).ceil() as i32,
            max_edge_len: (s.edge_max_len / s.cell_size) as i32,
            min_region_area: (s.region_min_size * s.region_min_size) as i32,
            merge_region_area: (s.region_merge_size * s.region_merge_size) as i32,
        }
    }
}

/// Runs Recast's pipeline on the triangles `tris` (3 vertex indices each, checked by
/// [`check_soup`]) of `soup` inside `frame`: mark walkable triangles by slope,
/// rasterise, filter low-hanging obstacles, ledges and low-height spans, build the
/// compact heightfield, erode by the agent radius, watershed regions (distance field,
/// `frame.border` cells of border), contours with wall-edge tessellation, and the
/// polygon mesh. The detail mesh is not built.
pub(super) fn run_recast(
    soup: &TriangleSoup,
    tris: &[i32],
    frame: &HeightfieldFrame,
    settings: &RecastSettings,
) -> Result<RawPolyMesh, DetourError> {
    let s = settings;
    let c = CellSettings::new(s);
    let check = |ok: bool, step: &'static str| {
        if ok {
            Ok(())
        } else {
            Err(DetourError::Recast(step))
        }
    };
    let (nv, nt) = ((soup.verts.len() / 3) as i32, (tris.len() / 3) as i32);

    // SAFETY: an allocation taking only a flag; `Owned` frees it with DeleteContext.
    let ctx = unsafe { sys::CreateContext(false) };
    let ctx = Owned::new(ctx, sys::DeleteContext, "rcContext")?;
    // SAFETY: an allocation without arguments; `Owned` frees it with the matching
    // rcFreeHeightField.
    let hf = unsafe { sys::rcAllocHeightfield() };
    let hf = Owned::new(hf, sys::rcFreeHeightField, "rcHeightfield")?;
    // SAFETY: `ctx` and `hf` are live; the bounds are arrays of 3 floats.
    let ok = unsafe {
        sys::rcCreateHeightfield(
            ctx.get(),
            hf.get(),
            frame.width,
            frame.height,
            frame.bmin.as_ptr(),
            frame.bmax.as_ptr(),
            s.cell_size,
            s.cell_height,
        )
    };
    check(ok, "rcCreateHeightfield")?;
    let mut areas = vec![0u8; nt as usize];
    let verts = soup.verts.as_ptr();
    // SAFETY: `verts` has 3 * nv floats, `tris` 3 * nt in-range indices (checked by
    // `check_soup` on the whole soup, of which `tris` is a subset), `areas` nt bytes;
    // `ctx` and `hf` are live.
    let ok = unsafe {
        sys::rcMarkWalkableTriangles(
            ctx.get(),
            s.agent_max_slope,
            verts,
            nv,
            tris.as_ptr(),
            nt,
            areas.as_mut_ptr(),
        );
        sys::rcRasterizeTriangles(
            ctx.get(),
            verts,
            nv,
            tris.as_ptr(),
            areas.as_ptr(),
            nt,
            hf.get(),
            c.walkable_climb,
        )
    };
    check(ok, "rcRasterizeTriangles")?;
    // SAFETY: `ctx` and `hf` are live.
    unsafe {
        sys::rcFilterLowHangingWalkableObstacles(ctx.get(), c.walkable_climb, hf.get());
        sys::rcFilterLedgeSpans(ctx.get(), c.walkable_height, c.walkable_climb, hf.get());
        sys::rcFilterWalkableLowHeightSpans(ctx.get(), c.walkable_height, hf.get());
    }
    // SAFETY: an allocation without arguments; `Owned` frees it with the matching
    // rcFreeCompactHeightfield.
    let chf = unsafe { sys::rcAllocCompactHeightfield() };
    let chf = Owned::new(chf, sys::rcFreeCompactHeightfield, "rcCompactHeightfield")?;
    // SAFETY: `ctx`, `hf` and `chf` are live.
    let ok = unsafe {
        sys::rcBuildCompactHeightfield(
            ctx.get(),
            c.walkable_height,
            c.walkable_climb,
            hf.get(),
            chf.get(),
        )
    };
    check(ok, "rcBuildCompactHeightfield")?;
    drop(hf);
    // SAFETY: `ctx` and `chf` are live.
    let ok = unsafe { sys::rcErodeWalkableArea(ctx.get(), c.walkable_radius, chf.get()) };
    check(ok, "rcErodeWalkableArea")?;
    // SAFETY: `ctx` and `chf` are live.
    let ok = unsafe { sys::rcBuildDistanceField(ctx.get(), chf.get()) };
    check(ok, "rcBuildDistanceField")?;
    // SAFETY: `ctx` and `chf` are live.
    let ok = unsafe {
        sys::rcBuildRegions(
            ctx.get(),
            chf.get(),
            frame.border,
            c.min_region_area,
            c.merge_region_area,
        )
    };
    check(ok, "rcBuildRegions")?;
    // SAFETY: an allocation without arguments; `Owned` frees it with the matching
    // rcFreeContourSet.
    let cset = unsafe { sys::rcAllocContourSet() };
    let cset = Owned::new(cset, sys::rcFreeContourSet, "rcContourSet")?;
    // SAFETY: `ctx`, `chf` and `cset` are live.
    let ok = unsafe {
        sys::rcBuildContours(
            ctx.get(),
            chf.get(),
            s.edge_max_error,
            c.max_edge_len,
            cset.get(),
            sys::rcBuildContoursFlags_RC_CONTOUR_TESS_WALL_EDGES as i32,
        )
    };
    check(ok, "rcBuildContours")?;
    // SAFETY: an allocation without arguments; `Owned` frees it with the matching
    // rcFreePolyMesh.
    let pmesh = unsafe { sys::rcAllocPolyMesh() };
    let pmesh = Owned::new(pmesh, sys::rcFreePolyMesh, "rcPolyMesh")?;
    // SAFETY: `ctx`, `cset` and `pmesh` are live.
    let ok = unsafe { sys::rcBuildPolyMesh(ctx.get(), cset.get(), s.verts_per_poly, pmesh.get()) };
    check(ok, "rcBuildPolyMesh")?;
    // SAFETY: `pmesh` is live and was filled by rcBuildPolyMesh; it is only read while
    // `pmesh` lives.
    let pm = unsafe { &*pmesh.get() };
    let nvp = pm.nvp as usize;
    let (nverts, npolys) = (pm.nverts as usize, pm.npolys as usize);
    let mut raw = RawPolyMesh {
        nvp,
        bmin: pm.bmin,
        bmax: pm.bmax,
        ..Default::default()
    };
    if nverts == 0 || npolys == 0 || pm.verts.is_null() || pm.polys.is_null() || pm.areas.is_null()
    {
        return Ok(raw);
    }
    // SAFETY: rcBuildPolyMesh allocated `verts` with 3 * nverts u16, `polys` with
    // 2 * nvp * maxpolys u16 and `areas` with maxpolys bytes (maxpolys >= npolys); all
    // are non-null (checked) and live as long as `pmesh`, which outlives these borrows.
    unsafe {
        raw.verts = std::slice::from_raw_parts(pm.verts, nverts * 3).to_vec();
        raw.polys = std::slice::from_raw_parts(pm.polys, npolys * 2 * nvp).to_vec();
        raw.areas = std::slice::from_raw_parts(pm.areas, npolys).to_vec();
    }
    Ok(raw)
}

/// Runs Recast's solo-mesh pipeline on a triangle soup (Y up), as RecastDemo's solo mesh
/// sample does (see `run_recast` for the steps; no border, no detail mesh).
///
/// # Errors
/// [`DetourError::Recast`] naming the step that failed, or an allocation failure.
pub fn build_recast_polymesh(
    soup: &TriangleSoup,
    settings: &RecastSettings,
) -> Result<RecastPolyMesh, DetourError> {
    check_soup(soup)?;
    let (bmin, bmax, (width, height)) = soup_grid(soup, settings.cell_size);
    let frame = HeightfieldFrame {
        bmin,
        bmax,
        width,
        height,
        border: 0,
    };
    let raw = run_recast(soup, &soup.tris, &frame, settings)?;
    let vertices = raw
        .verts
        .chunks_exact(3)
        .map(|v| {
            [
                raw.bmin[0] + f32::from(v[0]) * settings.cell_size,
                raw.bmin[1] + f32::from(v[1]) * settings.cell_height,
                raw.bmin[2] + f32::from(v[2]) * settings.cell_size,
            ]
        })
        .collect();
    Ok(RecastPolyMesh {
        vertices,
        polygons: raw.polygons(),
        grid_size: (width, height),
    })
}
