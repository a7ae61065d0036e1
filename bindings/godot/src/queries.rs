//! Every navstar query besides `find_path`, as plain-Rust methods of [`Navigator`]: the
//! details of the last path, raycast, nearest point, nearest target, reachable polygons,
//! run-time flags and interpolation. The class's methods are one-line adapters over
//! these. Each keeps the error text for `get_last_error()` and clears it on success.

use navstar::glam::Vec3;
use navstar::{NavMesh, NearestPoint, QueryFilter, Raycast, ReachedPolygon};

use crate::navigator::{FindError, Navigator, Settings};
use crate::options;

/// The answer of [`Navigator::reachable`]: one entry per polygon, cheapest first.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reached {
    /// Polygon ids (64-bit: ids of a world's polygons use all 32 bits).
    pub polygons: Vec<i64>,
    /// Cost of the cheapest way into each.
    pub costs: Vec<f32>,
    /// The polygon each is entered from; -1 for the start polygon.
    pub parents: Vec<i64>,
}

impl Navigator {
    /// Runs `f` on the mesh, keeping its error (or clearing the last one on success).
    pub(crate) fn on_mesh<T>(
        &mut self,
        f: impl FnOnce(&NavMesh) -> Result<T, FindError>,
    ) -> Result<T, FindError> {
        let outcome = match self.query.as_ref() {
            Some(query) => f(query.mesh()),
            None => Err(FindError::NoMesh),
        };
        match &outcome {
            Ok(_) => self.last_error.clear(),
            Err(e) => self.last_error = e.to_string(),
        }
        outcome
    }

    /// Runs `f` on the mesh with the settings' filter.
    pub(crate) fn with_filter<T>(
        &mut self,
        settings: &Settings,
        f: impl FnOnce(&NavMesh, &QueryFilter) -> Result<T, FindError>,
    ) -> Result<T, FindError> {
        let filter = settings.filter();
        self.on_mesh(|mesh| f(mesh, &filter.map_err(FindError::Setting)?))
    }

    /// Flags of each corner of the last path (navstar's `CornerFlags` bits: 1 start,
    /// 2 end, 4 link start, 8 link end, 16 area change); empty after a failure.
    pub fn last_corner_flags(&self) -> impl ExactSizeIterator<Item = i32> + '_ {
        self.last_details.iter().map(|d| i32::from(d.flags.bits()))
    }

    /// Area walked after each corner of the last path.
    pub fn last_corner_areas(&self) -> impl ExactSizeIterator<Item = i32> + '_ {
        self.last_details.iter().map(|d| i32::from(d.area))
    }

    /// Off-mesh link taken or arrived by at each corner of the last path, -1 for none.
    pub fn last_corner_links(&self) -> impl ExactSizeIterator<Item = i32> + '_ {
        self.last_details
            .iter()
            .map(|d| d.link.map_or(-1, |l| i32::try_from(l).unwrap_or(i32::MAX)))
    }

    /// The turns of the last path round wall corners, in path order (paths with an
    /// agent radius above the mesh's baked one; empty otherwise and after a failure).
    pub fn last_arcs(&self) -> &[navstar::PathArc] {
        &self.last_arcs
    }

    /// Cost of the last path under its filter (0 after a failure).
    pub fn last_cost(&self) -> f32 {
        self.last_cost
    }

    /// Polygons of the last path's corridor, start polygon first (empty when the path was
    /// answered without a search: one polygon, direct sight, or the exact mode).
    pub fn last_corridor(&self) -> Vec<i64> {
        self.query
            .as_ref()
            .map_or_else(Vec::new, |q| q.corridor().map(i64::from).collect())
    }

    /// Walks the ground straight from `from` towards `to` over polygons the filter admits.
    /// With an `agent_radius` the walk is the disc's centre's: it starts at the nearest
    /// point where the disc fits and stops where the disc would touch a wall
    /// (`NavMesh::raycast_for_agent`).
    ///
    /// # Errors
    /// No mesh, bad settings, or navstar's error (non-finite points, nothing admitted, a
    /// radius no point of the mesh fits).
    pub fn raycast(
        &mut self,
        from: [f32; 3],
        to: [f32; 3],
        settings: &Settings,
    ) -> Result<Raycast, FindError> {
        self.with_filter(settings, |mesh, filter| {
            mesh.raycast_for_agent(
                Vec3::from_array(from),
                Vec3::from_array(to),
                filter,
                settings.agent_radius,
            )
            .map_err(FindError::Query)
        })
    }

    /// The nearest point of a polygon the filter admits within `max_snap_distance`, for
    /// an agent of `agent_radius`: the nearest point where the disc fits, at least the
    /// radius from every wall (`NavMesh::nearest_point_for_agent`); `Ok(None)` when there
    /// is none that close.
    ///
    /// # Errors
    /// No mesh, bad settings, a non-finite point, or a radius no point of the mesh fits.
    pub fn closest_point(
        &mut self,
        point: [f32; 3],
        settings: &Settings,
    ) -> Result<Option<NearestPoint>, FindError> {
        self.with_filter(settings, |mesh, filter| {
            let point = Vec3::from_array(point);
            if !point.is_finite() {
                return Err(FindError::Setting(
                    "the point has a non-finite coordinate".to_owned(),
                ));
            }
            mesh.nearest_point_for_agent(
                point,
                settings.max_snap_distance,
                Some(filter),
                settings.agent_radius,
            )
            .map_err(FindError::Query)
        })
    }

    /// Of `targets`, the index of the one cheapest to walk to from `from`, with the path
    /// to it (kept for the read-back methods).
    ///
    /// # Errors
    /// As [`Navigator::find_path`]; `NoPath` when no target is reachable.
    pub fn nearest_target(
        &mut self,
        from: [f32; 3],
        targets: &[Vec3],
        settings: &Settings,
    ) -> Result<(usize, &[Vec3]), FindError> {
        let options = self.begin(settings)?;
        let Navigator {
            query,
            last_error,
            last_details,
            last_arcs,
            last_cost,
            last_ends,
            ..
        } = self;
        let query = query.as_mut().ok_or(FindError::NoMesh)?;
        match query.find_nearest_target(Vec3::from_array(from), targets, &options) {
            Ok(found) => {
                last_error.clear();
                last_details.extend_from_slice(found.path.details);
                last_arcs.extend_from_slice(found.path.arcs);
                *last_cost = found.path.cost;
                *last_ends = crate::navigator::ends(found.path.corners);
                Ok((found.target, found.path.corners))
            }
            Err(e) => {
                *last_error = e.to_string();
                Err(FindError::Query(e))
            }
        }
    }

    /// The polygons reachable from `from` within `max_cost`, cheapest first.
    ///
    /// # Errors
    /// No mesh, bad settings, or navstar's error (bad `max_cost`, off the mesh...).
    pub fn reachable(
        &mut self,
        from: [f32; 3],
        max_cost: f32,
        settings: &Settings,
    ) -> Result<Reached, FindError> {
        let filter = settings.filter().map_err(FindError::Setting);
        let outcome = match (self.query.as_mut(), filter) {
            (None, _) => Err(FindError::NoMesh),
            (_, Err(e)) => Err(e),
            (Some(query), Ok(filter)) => query
                .reachable_polygons_for_agent(
                    Vec3::from_array(from),
                    max_cost,
                    &filter,
                    settings.max_snap_distance,
                    settings.agent_radius,
                )
                .map(reached)
                .map_err(FindError::Query),
        };
        match &outcome {
            Ok(_) => self.last_error.clear(),
            Err(e) => self.last_error = e.to_string(),
        }
        outcome
    }

    /// The current flags of `polygon`.
    ///
    /// # Errors
    /// No mesh, or `polygon` out of range.
    pub fn polygon_flags(&mut self, polygon: i64) -> Result<i64, FindError> {
        self.on_mesh(|mesh| {
            let p = polygon_index(mesh, polygon)?;
            Ok(i64::from(mesh.polygon_flags(p)))
        })
    }

    /// The area id of `polygon`.
    ///
    /// # Errors
    /// No mesh, or `polygon` out of range.
    pub fn polygon_area(&mut self, polygon: i64) -> Result<i64, FindError> {
        self.on_mesh(|mesh| {
            let p = polygon_index(mesh, polygon)?;
            Ok(i64::from(mesh.polygon_area(p)))
        })
    }

    /// Changes the flags of `polygon` (a door closes); returns the previous flags.
    ///
    /// # Errors
    /// No mesh, `polygon` out of range, or `flags` not 32 bits.
    pub fn set_polygon_flags(&mut self, polygon: i64, flags: i64) -> Result<i64, FindError> {
        self.on_mesh(|mesh| {
            let p = polygon_index(mesh, polygon)?;
            let f = options::flags("flags", flags).map_err(FindError::Setting)?;
            mesh.set_polygon_flags(p, f)
                .map(i64::from)
                .map_err(FindError::Query)
        })
    }

    /// The number of off-mesh links (0 without a mesh).
    pub fn link_count(&self) -> i64 {
        self.mesh().map_or(0, |m| i64::from(m.link_count()))
    }

    /// The current flags of off-mesh link `link`.
    ///
    /// # Errors
    /// No mesh, or `link` out of range.
    pub fn link_flags(&mut self, link: i64) -> Result<i64, FindError> {
        self.on_mesh(|mesh| {
            let l = options::index("link", link, mesh.link_count()).map_err(FindError::Setting)?;
            Ok(i64::from(mesh.link_flags(l)))
        })
    }

    /// Changes the flags of off-mesh link `link`; returns the previous flags.
    ///
    /// # Errors
    /// No mesh, `link` out of range, or `flags` not 32 bits.
    pub fn set_link_flags(&mut self, link: i64, flags: i64) -> Result<i64, FindError> {
        self.on_mesh(|mesh| {
            let l = options::index("link", link, mesh.link_count()).map_err(FindError::Setting)?;
            let f = options::flags("flags", flags).map_err(FindError::Setting)?;
            mesh.set_link_flags(l, f)
                .map(i64::from)
                .map_err(FindError::Query)
        })
    }

    /// Blends per-vertex `values` (`channels` floats per vertex) at `point`.
    ///
    /// # Errors
    /// No mesh, bad settings, `channels` below 1, or navstar's error (wrong length,
    /// non-finite point).
    pub fn interpolate(
        &mut self,
        point: [f32; 3],
        values: &[f32],
        channels: i64,
        settings: &Settings,
    ) -> Result<Vec<f32>, FindError> {
        self.with_filter(settings, |mesh, filter| {
            let channels = usize::try_from(channels)
                .ok()
                .filter(|&c| c > 0)
                .ok_or_else(|| {
                    FindError::Setting(format!("channels {channels} must be at least 1"))
                })?;
            let mut out = vec![0.0; channels];
            mesh.interpolate(Vec3::from_array(point), values, channels, &mut out, filter)
                .map_err(FindError::Query)?;
            Ok(out)
        })
    }
}

fn polygon_index(mesh: &NavMesh, polygon: i64) -> Result<u32, FindError> {
    u32::try_from(polygon)
        .ok()
        .filter(|&p| mesh.contains_polygon(p))
        .ok_or_else(|| {
            FindError::Setting(format!(
                "polygon {polygon} is out of range (count {})",
                mesh.polygon_count()
            ))
        })
}

fn reached(list: &[ReachedPolygon]) -> Reached {
    Reached {
        polygons: list.iter().map(|r| i64::from(r.polygon)).collect(),
        costs: list.iter().map(|r| r.cost).collect(),
        parents: list
            .iter()
            .map(|r| r.parent.map_or(-1, i64::from))
            .collect(),
    }
}

#[cfg(test)]
#[path = "queries_tests.rs"]
mod tests;
