//! # navstar-godot
//!
//! A Godot 4 GDExtension (built with [gdext](https://godot-rust.github.io)) that exposes
//! navstar to GDScript as three classes: `NavstarMesh`, a navigation mesh with its own
//! query (paths with filters, area costs and links, raycast, closest point, nearest
//! target, reachable polygons, run-time flags, interpolation, loading and saving, 2D
//! variants, debug drawing, moves along the surface, distances to walls, random points,
//! time-sliced paths), `NavstarCorridor`, one agent following a path, and
//! `NavstarMeshResource`, a mesh saved as a `Resource`.
//! See `docs/godot.md` for building, installing, every method and the threading rules.
//!
//! The binding is thin on purpose. Every `#[func]` (here, in `class_queries.rs`,
//! `class_agents.rs`, `corridor_class.rs` and `resource.rs`) only turns Godot values into
//! `[f32; 3]`s and slices and calls the plain-Rust code in [`navigator`], [`queries`],
//! [`agents`], [`follow`], [`tiles`], [`obstacles`], [`landmarks`], [`fast_lane`], [`options`],
//! [`extras`], [`loading`], [`debug`] and [`convert`],
//! which `cargo test -p navstar-godot` tests without an engine (Godot's engine-backed
//! types, such as `PackedVector3Array`, panic when no engine is running). Panics never
//! reach the engine: gdext catches them at every `#[func]` and reports them as errors,
//! and the code here returns errors instead of panicking.

pub mod agents;
mod class_agents;
mod class_obstacles;
mod class_queries;
pub mod convert;
mod corridor_class;
pub mod debug;
pub mod extras;
pub mod fast_lane;
pub mod follow;
mod godot_io;
pub mod landmarks;
pub mod loading;
pub mod navigator;
pub mod obstacles;
pub mod options;
pub mod queries;
mod resource;
#[cfg(test)]
mod test_meshes;
pub mod tiles;

use godot::classes::Resource;
use godot::prelude::*;

use godot_io::{polygon_arrays, read_navigation_mesh, read_navigation_polygon};
use navigator::{FindError, Navigator, Settings};

pub use corridor_class::NavstarCorridor;
pub use resource::NavstarMeshResource;

struct NavstarExtension;

// SAFETY: the single `#[gdextension]` entry point of this library (`gdext_rust_init`).
#[gdextension]
unsafe impl ExtensionLibrary for NavstarExtension {}

/// A navigation mesh (convex polygons, y up) that finds paths with navstar.
///
/// Build it from the arrays of a Godot `NavigationMesh` (`get_vertices()` and one
/// `get_polygon(i)` per polygon), from a `NavigationMesh` or `NavigationPolygon` itself,
/// from navstar's flat index form, with areas, flags and links (`build_with`), tile by
/// tile (`add_tile`), or load it (`load_file`, `load_bytes`); then query it:
/// `find_path(from, to)` and the methods in `class_queries.rs`, shaped by the filter and
/// cost properties. The points are in the mesh's own coordinates (for a
/// `NavigationRegion3D`, its local space).
///
/// Errors: `build_*` return `false` and print the reason with `push_error`; queries
/// return an empty array, `{}`, -1 or `false`. In every case `get_last_error()` says
/// why, and it is `""` after a call that succeeded.
///
/// Threads: use an object from the main thread only (see `docs/godot.md`).
#[derive(GodotClass)]
#[class(base = RefCounted, init)]
pub struct NavstarMesh {
    nav: Navigator,
    /// Vertices closer than this are merged when a mesh is built (0: only identical ones).
    #[var]
    #[init(val = Settings::default().weld_distance)]
    weld_distance: f32,
    /// How far `from` and `to` may lie from the mesh; they are moved onto it first.
    /// `INF` (the default) snaps from any distance.
    #[var]
    #[init(val = Settings::default().max_snap_distance)]
    max_snap_distance: f32,
    /// When the goal cannot be reached, return the path to the reachable point closest
    /// to it (`is_last_path_partial()` is then true) instead of an empty array.
    #[var]
    #[init(val = Settings::default().allow_partial)]
    allow_partial: bool,
    /// How `find_path` finds paths: 2 (the default, auto): exact shortest paths
    /// wherever they answer what was asked (equal area costs, no off-mesh links,
    /// heuristic weight 1, no split at area changes), A* and the funnel otherwise;
    /// 0: always A* and the funnel; 1: always exact shortest paths (navstar's optimal
    /// mode).
    #[var]
    #[init(val = Settings::default().path_mode)]
    path_mode: i64,
    /// When path searches sharpen their estimates with the mesh's landmark table
    /// (geodesic distances from 8 landmark points; same exact paths, fewer nodes
    /// searched): 0 (the default) on meshes of at least 500 polygons, 1 always, 2
    /// never. `prepare_landmarks()` builds the table at load time; a world of tiles
    /// has tables only from it.
    #[var]
    #[init(val = Settings::default().landmarks)]
    landmarks: i64,
    /// Whether exact shortest paths (`path_mode` 1, and 2 where it finds them) are
    /// answered from the mesh's fast-lane index, without a search: true (the default) or
    /// false. The lengths are the same either way. A mesh of at least 500 polygons builds
    /// the index on its first such path; `prepare_fast_lane()` builds it at load time,
    /// on any mesh built or loaded whole.
    #[var]
    #[init(val = Settings::default().fast_lane)]
    fast_lane: bool,
    /// Polygons and links are used only if their flags share a bit with this mask
    /// (Godot's `navigation_layers`; default all 32 bits).
    #[var]
    #[init(val = Settings::default().include_flags)]
    navigation_layers: i64,
    /// Polygons and links whose flags share a bit with this mask are refused (default 0).
    #[var]
    #[init(val = Settings::default().exclude_flags)]
    excluded_layers: i64,
    /// Cost multiplier of each area id (index = area, at most 64 entries; areas past the
    /// end cost 1): Godot's region `travel_cost`. Each must be finite and above 0.
    #[var]
    area_costs: PackedFloat32Array,
    /// Add a path corner wherever the path passes into another area.
    #[var]
    #[init(val = Settings::default().split_at_area_changes)]
    split_at_area_changes: bool,
    /// Multiplier of the A* estimate (1: shortest corridors; above 1: faster, maybe longer).
    #[var]
    #[init(val = Settings::default().heuristic_weight)]
    heuristic_weight: f32,
    /// The agent's radius in world units (default 0): paths, nearest targets,
    /// reachable polygons, the closest point and raycasts keep at least this far from
    /// every wall (navstar's `PathOptions::agent_radius`, `nearest_point_for_agent` and
    /// `raycast_for_agent`; several agent sizes on one mesh).
    #[var]
    #[init(val = Settings::default().agent_radius)]
    agent_radius: f32,
    base: Base<RefCounted>,
}

#[godot_api]
impl NavstarMesh {
    /// Builds the mesh from vertex positions and an array of `PackedInt32Array`s, one per
    /// polygon (the shape of `NavigationMesh.get_vertices()` and `get_polygon(i)`).
    /// Replaces any previous mesh; a failed build leaves none.
    #[func]
    fn build_from_polygons(&mut self, vertices: PackedVector3Array, polygons: AnyArray) -> bool {
        let arrays = polygon_arrays(&polygons);
        self.build_arrays(&vertices, arrays)
    }

    /// Builds the mesh from navstar's flat form: `indices` holds the corners of all
    /// polygons one after another, `sizes` the corner count of each polygon.
    #[func]
    fn build_from_flat(
        &mut self,
        vertices: PackedVector3Array,
        indices: PackedInt32Array,
        sizes: PackedInt32Array,
    ) -> bool {
        report(self.with_settings(|nav, s| {
            nav.build_flat(
                positions(&vertices),
                indices.as_slice(),
                sizes.as_slice(),
                s,
            )
        }))
    }

    /// Builds the mesh with per-polygon `areas` (0 to 63; empty: area 0 everywhere) and
    /// `flags` (empty: 1 everywhere) and off-mesh `links`: an `Array` of `Dictionary`s with
    /// `start_position` and `end_position` (`Vector3`) and optionally `bidirectional`
    /// (true), `cost` (the distance), `area` (0), `flags` (1) and `radius` (1).
    #[func]
    fn build_with(
        &mut self,
        vertices: PackedVector3Array,
        polygons: AnyArray,
        areas: PackedInt32Array,
        flags: PackedInt32Array,
        links: AnyArray,
    ) -> bool {
        let arrays = polygon_arrays(&polygons);
        let extras = godot_io::links(&links)
            .and_then(|links| extras::extras(areas.as_slice(), flags.as_slice(), links));
        report(self.with_settings(|nav, s| match (arrays, extras) {
            (Ok(p), Ok(x)) => nav.build_with(
                positions(&vertices),
                p.iter().map(PackedInt32Array::as_slice),
                &x,
                s,
            ),
            (Err(m), _) | (_, Err(m)) => nav.fail_build(m),
        }))
    }

    /// Builds the mesh from 2D polygons (a `NavigationPolygon`'s `get_vertices()` and
    /// `get_polygon(i)`): `Vector2(x, y)` becomes `Vector3(x, 0, y)`. Use the `_2d` query
    /// methods with it.
    #[func]
    fn build_from_polygons_2d(&mut self, vertices: PackedVector2Array, polygons: AnyArray) -> bool {
        let arrays = polygon_arrays(&polygons);
        let vertices = lift(&vertices);
        self.build_arrays(&vertices, arrays)
    }

    /// Builds the mesh from a `NavigationPolygon` resource (2D; see
    /// `build_from_polygons_2d`).
    #[func]
    fn build_from_navigation_polygon(&mut self, navigation_polygon: Option<Gd<Resource>>) -> bool {
        match read_navigation_polygon(navigation_polygon) {
            Ok((vertices, polygons)) => self.build_arrays(&lift(&vertices), Ok(polygons)),
            Err(message) => report(self.nav.fail_build(message)),
        }
    }

    /// Loads the mesh from a file in any format navstar reads, chosen by the extension:
    /// `.navstar` (binary), `.obj`, `.mesh` (Polyanya), `.map` (grid). `res://` and
    /// `user://` paths work in the editor and in debug runs, not from an exported pack
    /// (use `load_bytes` with `FileAccess.get_file_as_bytes` there).
    #[func]
    fn load_file(&mut self, path: GString) -> bool {
        let path = godot_io::globalize(&path);
        report(self.with_settings(|nav, s| nav.load_file(&path, s)))
    }

    /// Loads the mesh from bytes in the format named by `format` (an extension such as
    /// `"obj"`; `""` or `"navstar"` for the binary format `save_to_bytes` writes).
    #[func]
    fn load_bytes(&mut self, bytes: PackedByteArray, format: GString) -> bool {
        let format = format.to_string();
        report(self.with_settings(|nav, s| nav.load_bytes(bytes.as_slice(), &format, s)))
    }

    /// The mesh in navstar's binary format (its current flags included); empty on failure.
    #[func]
    fn save_to_bytes(&mut self) -> PackedByteArray {
        match self.nav.save_bytes() {
            Ok(bytes) => PackedByteArray::from(bytes.as_slice()),
            Err(e) => {
                godot_error!("NavstarMesh.save_to_bytes: {e}");
                PackedByteArray::new()
            }
        }
    }

    /// Builds the mesh from a `NavigationMesh` resource (its vertices and polygons, in the
    /// resource's own coordinates).
    #[func]
    fn build_from_navigation_mesh(&mut self, navigation_mesh: Option<Gd<Resource>>) -> bool {
        match read_navigation_mesh(navigation_mesh) {
            Ok((vertices, polygons)) => self.build_arrays(&vertices, Ok(polygons)),
            Err(message) => report(self.nav.fail_build(message)),
        }
    }

    /// A new mesh built with `build_from_polygons()` and default settings. Check
    /// `get_polygon_count()` or `get_last_error()` for failure.
    #[func]
    fn from_polygons(vertices: PackedVector3Array, polygons: AnyArray) -> Gd<NavstarMesh> {
        with_new(|mesh| mesh.build_from_polygons(vertices, polygons))
    }

    /// A new mesh built with `build_from_navigation_mesh()` and default settings. Check
    /// `get_polygon_count()` or `get_last_error()` for failure.
    #[func]
    fn from_navigation_mesh(navigation_mesh: Option<Gd<Resource>>) -> Gd<NavstarMesh> {
        with_new(|mesh| mesh.build_from_navigation_mesh(navigation_mesh))
    }

    /// The corners of the shortest path from `from` to `to`, both first moved onto the
    /// mesh; empty when there is none (see `get_last_error()`).
    #[func]
    fn find_path(&mut self, from: Vector3, to: Vector3) -> PackedVector3Array {
        self.with_settings(|nav, s| {
            path_or_empty(nav.find_path(array3(from), array3(to), s)).collect()
        })
    }

    /// Why the last build or `find_path` failed, or `""` when it succeeded.
    #[func]
    fn get_last_error(&self) -> GString {
        GString::from(self.nav.last_error())
    }

    /// Whether the last path found stops short of an unreachable goal.
    #[func]
    fn is_last_path_partial(&self) -> bool {
        self.nav.last_partial()
    }

    /// Number of polygons (0 before a successful build).
    #[func]
    fn get_polygon_count(&self) -> i64 {
        self.nav.polygon_count()
    }

    /// Number of vertices (0 before a successful build).
    #[func]
    fn get_vertex_count(&self) -> i64 {
        self.nav.vertex_count()
    }

    /// Number of islands, groups of polygons connected by shared edges.
    #[func]
    fn get_island_count(&self) -> i64 {
        self.nav.island_count()
    }
}

impl NavstarMesh {
    /// Runs `f` on the navigator with the current properties as settings.
    fn with_settings<T>(&mut self, f: impl FnOnce(&mut Navigator, &Settings) -> T) -> T {
        // A reference-counted handle to the same array: no copy of its data.
        let costs = self.area_costs.clone();
        let s = Settings {
            weld_distance: self.weld_distance,
            max_snap_distance: self.max_snap_distance,
            allow_partial: self.allow_partial,
            path_mode: self.path_mode,
            landmarks: self.landmarks,
            fast_lane: self.fast_lane,
            include_flags: self.navigation_layers,
            exclude_flags: self.excluded_layers,
            area_costs: costs.as_slice(),
            split_at_area_changes: self.split_at_area_changes,
            heuristic_weight: self.heuristic_weight,
            agent_radius: self.agent_radius,
        };
        f(&mut self.nav, &s)
    }

    fn build_arrays(
        &mut self,
        vertices: &PackedVector3Array,
        polygons: Result<Vec<PackedInt32Array>, String>,
    ) -> bool {
        report(self.with_settings(|nav, s| match polygons {
            Ok(p) => nav.build(
                positions(vertices),
                p.iter().map(PackedInt32Array::as_slice),
                s,
            ),
            Err(message) => nav.fail_build(message),
        }))
    }
}

// ---- conversions at the engine edge (Godot types in, plain Rust out) ----

fn array3(v: Vector3) -> [f32; 3] {
    [v.x, v.y, v.z]
}

fn positions(vertices: &PackedVector3Array) -> impl Iterator<Item = [f32; 3]> + '_ {
    vertices.as_slice().iter().map(|&v| array3(v))
}

/// The corners of a path, or none (a script mistake, such as no mesh or a bad
/// property, is also printed; off the mesh, unreachable...: an ordinary answer, left to
/// `get_last_error()`).
fn path_or_empty(
    path: Result<&[navstar::glam::Vec3], FindError>,
) -> impl Iterator<Item = Vector3> + '_ {
    let corners = match path {
        Ok(corners) => corners,
        Err(e) => {
            complain(&e);
            &[]
        }
    };
    convert::points(corners).map(Vector3::from_array)
}

/// Prints errors that are mistakes in the calling script (no mesh, a bad property or
/// argument); navstar's own answers (off the mesh, unreachable...) are only kept for
/// `get_last_error()`.
fn complain(e: &FindError) {
    if !matches!(e, FindError::Query(_)) {
        godot_error!("NavstarMesh: {e}");
    }
}

/// 2D points as 3D ground points: `Vector2(x, y)` to `Vector3(x, 0, y)`.
fn lift(points: &PackedVector2Array) -> PackedVector3Array {
    points
        .as_slice()
        .iter()
        .map(|p| Vector3::from_array(convert::lift([p.x, p.y])))
        .collect()
}

fn report(result: Result<(), String>) -> bool {
    match result {
        Ok(()) => true,
        Err(message) => {
            godot_error!("NavstarMesh: {message}");
            false
        }
    }
}

fn with_new(build: impl FnOnce(&mut NavstarMesh) -> bool) -> Gd<NavstarMesh> {
    let mut mesh = NavstarMesh::new_gd();
    build(&mut mesh.bind_mut());
    mesh
}
