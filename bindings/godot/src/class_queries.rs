//! The query methods of `NavstarMesh` beyond `find_path`: path details, 2D paths,
//! raycast, closest point, nearest target, reachable polygons, run-time flags,
//! interpolation and debug drawing. Each is a thin adapter over [`crate::queries`] or
//! [`crate::debug`]; errors are kept for `get_last_error()`, and mistakes in the calling
//! script (no mesh, an index out of range, a bad property) are also printed.

use godot::classes::ArrayMesh;
use godot::classes::mesh::{ArrayType, PrimitiveType};
use godot::prelude::*;

use crate::debug::{self, EdgeKind};
use crate::godot_io::{flat, polygon_arrays, put, vector};
use crate::navigator::FindError;
use crate::{NavstarMesh, array3, complain, convert, path_or_empty, positions, report};

/// The value, or `fallback` after printing a script mistake.
pub(crate) fn or<T>(outcome: Result<T, FindError>, fallback: T) -> T {
    outcome.unwrap_or_else(|e| {
        complain(&e);
        fallback
    })
}

#[godot_api(secondary)]
impl NavstarMesh {
    /// `find_path` for a mesh built from 2D polygons: `Vector2(x, y)` is the ground point
    /// `(x, 0, y)`.
    #[func]
    fn find_path_2d(&mut self, from: Vector2, to: Vector2) -> PackedVector2Array {
        let (from, to) = (convert::lift([from.x, from.y]), convert::lift([to.x, to.y]));
        self.with_settings(|nav, s| {
            path_or_empty(nav.find_path(from, to, s))
                .map(|p| Vector2::new(p.x, p.z))
                .collect()
        })
    }

    /// For each corner of the last path (`find_path`, `find_nearest_target`), its flags:
    /// 1 start, 2 end, 4 off-mesh link start, 8 link end, 16 area change (with
    /// `split_at_area_changes`). Empty after a failed query.
    #[func]
    fn get_last_path_corner_flags(&self) -> PackedInt32Array {
        self.nav.last_corner_flags().collect()
    }

    /// For each corner of the last path, the area walked after it.
    #[func]
    fn get_last_path_areas(&self) -> PackedInt32Array {
        self.nav.last_corner_areas().collect()
    }

    /// For each corner of the last path, the off-mesh link taken from or arrived by
    /// there, -1 elsewhere.
    #[func]
    fn get_last_path_links(&self) -> PackedInt32Array {
        self.nav.last_corner_links().collect()
    }

    /// The turns of the last path round convex wall corners, in path order (paths with
    /// an `agent_radius` above the mesh's baked one; empty otherwise): one dictionary per
    /// turn, `{first_point, last_point, centre, radius}`. The points `first_point` to
    /// `last_point` of the path lie on an octagon drawn round the circle of `radius` about
    /// the wall corner `centre`, so the polyline keeps `radius` from it; an agent that
    /// steers on curves may follow the circle instead.
    #[func]
    fn get_last_path_arcs(&self) -> VarArray {
        let mut arcs = VarArray::new();
        for arc in self.nav.last_arcs() {
            let mut d = VarDictionary::new();
            put(&mut d, "first_point", i64::from(arc.first_corner));
            put(&mut d, "last_point", i64::from(arc.last_corner));
            put(&mut d, "centre", vector(arc.centre));
            put(&mut d, "radius", arc.radius);
            arcs.push(&d.to_variant());
        }
        arcs
    }

    /// The cost of the last path: its length weighted by `area_costs`, plus link costs.
    #[func]
    fn get_last_path_cost(&self) -> f32 {
        self.nav.last_cost()
    }

    /// The polygons the last path crosses, start polygon first (for a path found without
    /// a search or by the exact mode, walked over the mesh after it).
    #[func]
    fn get_last_path_corridor(&self) -> PackedInt64Array {
        PackedInt64Array::from(self.nav.last_corridor().as_slice())
    }

    /// Walks straight over the ground from `from` (first moved onto the mesh) towards
    /// `to` until a wall. Returns `{position, fraction, polygon, hit, normal}`: where it
    /// stopped, how far along (0 to 1), the polygon there, whether a wall stopped it and
    /// the wall's normal (`Vector3.ZERO` without a hit); `{}` on error.
    #[func]
    fn raycast(&mut self, from: Vector3, to: Vector3) -> VarDictionary {
        let ray = self.with_settings(|nav, s| nav.raycast(array3(from), array3(to), s));
        let mut d = VarDictionary::new();
        if let Some(ray) = or(ray.map(Some), None) {
            put(&mut d, "position", vector(ray.point));
            put(&mut d, "fraction", ray.t);
            put(&mut d, "polygon", i64::from(ray.polygon));
            put(&mut d, "hit", ray.hit.is_some());
            put(
                &mut d,
                "normal",
                ray.hit.map_or(Vector3::ZERO, |h| vector(h.normal)),
            );
        }
        d
    }

    /// The point of the mesh nearest to `point` (3D distance) among the polygons the
    /// filter admits and within `max_snap_distance`; `point` itself when there is none
    /// (see `get_closest_point_info`).
    #[func]
    fn get_closest_point(&mut self, point: Vector3) -> Vector3 {
        let found = self.with_settings(|nav, s| nav.closest_point(array3(point), s));
        or(found, None).map_or(point, |n| vector(n.point))
    }

    /// `get_closest_point` with details: `{position, polygon, distance}`, or `{}` when no
    /// admitted polygon is within `max_snap_distance`.
    #[func]
    fn get_closest_point_info(&mut self, point: Vector3) -> VarDictionary {
        let found = self.with_settings(|nav, s| nav.closest_point(array3(point), s));
        let mut d = VarDictionary::new();
        if let Some(n) = or(found, None) {
            put(&mut d, "position", vector(n.point));
            put(&mut d, "polygon", i64::from(n.polygon));
            put(&mut d, "distance", n.distance);
        }
        d
    }

    /// `get_closest_point` for a 2D mesh.
    #[func]
    fn get_closest_point_2d(&mut self, point: Vector2) -> Vector2 {
        let at = convert::lift([point.x, point.y]);
        let found = self.with_settings(|nav, s| nav.closest_point(at, s));
        or(found, None).map_or(point, |n| flat(n.point))
    }

    /// Of `targets`, the one cheapest to walk to from `from`, by one search:
    /// `{target, path}` (its index and the path), or `{target: -1, path: []}` when none
    /// is reachable (see `get_last_error()`).
    #[func]
    fn find_nearest_target(&mut self, from: Vector3, targets: PackedVector3Array) -> VarDictionary {
        let goals: Vec<navstar::glam::Vec3> = targets
            .as_slice()
            .iter()
            .map(|&t| navstar::glam::Vec3::from_array(array3(t)))
            .collect();
        let (target, path) =
            self.with_settings(|nav, s| match nav.nearest_target(array3(from), &goals, s) {
                Ok((target, corners)) => (
                    target as i64,
                    corners
                        .iter()
                        .map(|&c| vector(c))
                        .collect::<PackedVector3Array>(),
                ),
                Err(e) => {
                    complain(&e);
                    (-1, PackedVector3Array::new())
                }
            });
        let mut d = VarDictionary::new();
        put(&mut d, "target", target);
        put(&mut d, "path", path);
        d
    }

    /// The polygons reachable from `from` at a path cost of at most `max_cost` (`INF`:
    /// all connected ones), cheapest first: `{polygons, costs, parents}` (parents: the
    /// polygon each is entered from, -1 for the start's); empty arrays on error.
    #[func]
    fn get_reachable_polygons(&mut self, from: Vector3, max_cost: f32) -> VarDictionary {
        let reached = self.with_settings(|nav, s| nav.reachable(array3(from), max_cost, s));
        let r = or(reached, Default::default());
        let mut d = VarDictionary::new();
        put(
            &mut d,
            "polygons",
            PackedInt64Array::from(r.polygons.as_slice()),
        );
        put(
            &mut d,
            "costs",
            PackedFloat32Array::from(r.costs.as_slice()),
        );
        put(
            &mut d,
            "parents",
            PackedInt64Array::from(r.parents.as_slice()),
        );
        d
    }

    /// The current flags of `polygon` (-1 on error).
    #[func]
    fn get_polygon_flags(&mut self, polygon: i64) -> i64 {
        or(self.nav.polygon_flags(polygon), -1)
    }

    /// Changes the flags of `polygon` at run time (a door closes: clear the bit your
    /// `navigation_layers` include). Every later query sees it. False on error.
    #[func]
    fn set_polygon_flags(&mut self, polygon: i64, flags: i64) -> bool {
        or(
            self.nav.set_polygon_flags(polygon, flags).map(|_| true),
            false,
        )
    }

    /// The area id of `polygon`, fixed at build (-1 on error).
    #[func]
    fn get_polygon_area(&mut self, polygon: i64) -> i64 {
        or(self.nav.polygon_area(polygon), -1)
    }

    /// The number of off-mesh links.
    #[func]
    fn get_link_count(&self) -> i64 {
        self.nav.link_count()
    }

    /// The current flags of off-mesh link `link` (-1 on error).
    #[func]
    fn get_link_flags(&mut self, link: i64) -> i64 {
        or(self.nav.link_flags(link), -1)
    }

    /// Changes the flags of off-mesh link `link` at run time. False on error.
    #[func]
    fn set_link_flags(&mut self, link: i64, flags: i64) -> bool {
        or(self.nav.set_link_flags(link, flags).map(|_| true), false)
    }

    /// Blends per-vertex data at `point`: `values` holds `channels` floats per vertex,
    /// vertex after vertex. Returns `channels` floats (empty on error).
    #[func]
    fn interpolate(
        &mut self,
        point: Vector3,
        values: PackedFloat32Array,
        channels: i64,
    ) -> PackedFloat32Array {
        let out = self
            .with_settings(|nav, s| nav.interpolate(array3(point), values.as_slice(), channels, s));
        PackedFloat32Array::from(or(out, Vec::new()).as_slice())
    }

    /// Adds a tile (Godot: a region) from per-polygon arrays, with optional areas, flags
    /// and links as in `build_with`, and returns its id (-1 on error). The first tile
    /// starts a world of tiles in place of any whole mesh; tiles join where their wall
    /// edges match, and every query sees the world as it is after the change.
    #[func]
    fn add_tile(
        &mut self,
        vertices: PackedVector3Array,
        polygons: AnyArray,
        areas: PackedInt32Array,
        flags: PackedInt32Array,
        links: AnyArray,
    ) -> i64 {
        let input = tile_input(&polygons, &areas, &flags, &links);
        let added = self.with_settings(|nav, s| {
            let (arrays, extras) = input.inspect_err(|m| nav.last_error.clone_from(m))?;
            nav.add_tile(
                positions(&vertices),
                arrays.iter().map(PackedInt32Array::as_slice),
                &extras,
                s,
            )
        });
        report_id(added)
    }

    /// Replaces tile `tile` by new polygons (arguments as `add_tile`); returns the new
    /// tile's id (the old one becomes stale), -1 on error.
    #[func]
    fn replace_tile(
        &mut self,
        tile: i64,
        vertices: PackedVector3Array,
        polygons: AnyArray,
        areas: PackedInt32Array,
        flags: PackedInt32Array,
        links: AnyArray,
    ) -> i64 {
        let input = tile_input(&polygons, &areas, &flags, &links);
        let replaced = self.with_settings(|nav, s| {
            let (arrays, extras) = input.inspect_err(|m| nav.last_error.clone_from(m))?;
            nav.replace_tile(
                tile,
                positions(&vertices),
                arrays.iter().map(PackedInt32Array::as_slice),
                &extras,
                s,
            )
        });
        report_id(replaced)
    }

    /// Removes tile `tile`; the seams of its neighbours become walls again.
    #[func]
    fn remove_tile(&mut self, tile: i64) -> bool {
        report(self.nav.remove_tile(tile))
    }

    /// Cuts the mesh built or loaded whole into square tiles of side `tile_size` (world
    /// units) and makes it a world of them, answering as before; returns the number of
    /// tiles (-1 on error: a bad tile size, no mesh, a world already). Obstacles then
    /// rebuild only the tiles they touch, and tiles can be replaced or removed one by one.
    #[func]
    fn split_into_tiles(&mut self, tile_size: f32) -> i64 {
        report_id(self.nav.split_into_tiles(tile_size))
    }

    /// The number of tiles (0 unless the mesh was made with `add_tile`).
    #[func]
    fn get_tile_count(&self) -> i64 {
        self.nav.tile_count()
    }

    /// Builds the landmark tables now (about 0.1-0.5 s on a mesh of a few thousand
    /// polygons) rather than on the first path search that uses them (see the
    /// `landmarks` property). True when the mesh has them; false without a mesh (see
    /// `get_last_error()`) and for a mesh built whole with off-mesh links, which gets
    /// none. A world of tiles gets tables only from this call: they survive
    /// `remove_tile` and `add_obstacle`, and `add_tile`, `replace_tile`,
    /// `move_obstacle` and `remove_obstacle` that bring back ground of the build (a
    /// tile added back, an obstacle added later moved); ground they never saw caps
    /// their bounds near it (much of it drops them: call it again then).
    /// Exact paths are the same with and without.
    #[func]
    fn prepare_landmarks(&mut self) -> bool {
        self.nav.prepare_landmarks().unwrap_or(false)
    }

    /// Builds the exact mode's fast-lane index now, with no size limit, rather than on
    /// the first exact path (which builds it only on meshes of at least 500 polygons,
    /// within a budget; see the `fast_lane` property). True when the mesh has one; false
    /// without a mesh (see `get_last_error()`), for a mesh with off-mesh links and for a
    /// world of tiles, which get none.
    #[func]
    fn prepare_fast_lane(&mut self) -> bool {
        self.nav.prepare_fast_lane().unwrap_or(false)
    }

    /// The bytes of the landmark tables path searches can use now (for a world, the
    /// part its current state kept); 0 without a mesh or tables.
    #[func]
    fn get_landmark_bytes(&self) -> i64 {
        self.nav.landmark_bytes()
    }

    /// Line segments (pairs of points, for `Mesh.PRIMITIVE_LINES`) along the mesh's
    /// walls: edges with no polygon on the other side.
    #[func]
    fn get_debug_wall_lines(&self) -> PackedVector3Array {
        self.debug_lines(EdgeKind::Walls)
    }

    /// Line segments along edges shared by two polygons, each once.
    #[func]
    fn get_debug_portal_lines(&self) -> PackedVector3Array {
        self.debug_lines(EdgeKind::Portals)
    }

    /// An `ArrayMesh` for a `MeshInstance3D`: surface 0 the polygons as triangles (draw
    /// with culling disabled), then the walls and the shared edges as lines (each
    /// surface only if it has any). Empty without a mesh.
    #[func]
    fn get_debug_mesh(&self) -> Gd<ArrayMesh> {
        let mut out = ArrayMesh::new_gd();
        let Some(mesh) = self.nav.mesh() else {
            return out;
        };
        let t = debug::triangles(mesh);
        if !t.indices.is_empty() {
            let vertices: PackedVector3Array = t.vertices.iter().map(|&v| vector(v)).collect();
            let indices = PackedInt32Array::from(t.indices.as_slice());
            out.add_surface_from_arrays(
                PrimitiveType::TRIANGLES,
                &surface(vertices, Some(indices)),
            );
        }
        for kind in [EdgeKind::Walls, EdgeKind::Portals] {
            let lines = self.debug_lines(kind);
            if !lines.is_empty() {
                out.add_surface_from_arrays(PrimitiveType::LINES, &surface(lines, None));
            }
        }
        out
    }
}

impl NavstarMesh {
    fn debug_lines(&self, kind: EdgeKind) -> PackedVector3Array {
        self.nav
            .mesh()
            .map_or_else(PackedVector3Array::new, |mesh| {
                debug::edges(mesh, kind).into_iter().map(vector).collect()
            })
    }
}

/// The polygons and extras of a tile, read from Godot arrays.
fn tile_input(
    polygons: &AnyArray,
    areas: &PackedInt32Array,
    flags: &PackedInt32Array,
    links: &AnyArray,
) -> Result<(Vec<PackedInt32Array>, crate::navigator::Extras), String> {
    let arrays = polygon_arrays(polygons)?;
    let links = crate::godot_io::links(links)?;
    let extras = crate::extras::extras(areas.as_slice(), flags.as_slice(), links)?;
    Ok((arrays, extras))
}

/// A tile id, or -1 after printing the error.
fn report_id(id: Result<i64, String>) -> i64 {
    id.unwrap_or_else(|message| {
        godot_error!("NavstarMesh: {message}");
        -1
    })
}

/// The arrays of one `ArrayMesh` surface (`Mesh.ARRAY_MAX` slots).
fn surface(vertices: PackedVector3Array, indices: Option<PackedInt32Array>) -> VarArray {
    let mut arrays = VarArray::new();
    arrays.resize(ArrayType::MAX.ord() as usize, &Variant::nil());
    arrays.set(ArrayType::VERTEX.ord() as usize, &vertices.to_variant());
    if let Some(indices) = indices {
        arrays.set(ArrayType::INDEX.ord() as usize, &indices.to_variant());
    }
    arrays
}
