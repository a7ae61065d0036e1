//! # navstar-godot
//!
//! A Godot 4 GDExtension (built with [gdext](https://godot-rust.github.io)) that exposes
//! navstar to GDScript as one class, `NavstarMesh`: a navigation mesh with its own path
//! query. See `docs/godot.md` for building, installing and the threading rules.
//!
//! The binding is thin on purpose. Every `#[func]` below only turns Godot values into
//! `[f32; 3]`s and slices and calls the plain-Rust code in [`navigator`] and [`convert`],
//! which `cargo test -p navstar-godot` tests without an engine (Godot's engine-backed
//! types, such as `PackedVector3Array`, panic when no engine is running). Panics never
//! reach the engine: gdext catches them at every `#[func]` and reports them as errors,
//! and the code here returns errors instead of panicking.

pub mod convert;
pub mod navigator;

use godot::classes::Resource;
use godot::prelude::*;

use navigator::{FindError, Navigator, Settings};

struct NavstarExtension;

// SAFETY: the single `#[gdextension]` entry point of this library (`gdext_rust_init`).
#[gdextension]
unsafe impl ExtensionLibrary for NavstarExtension {}

/// A navigation mesh (convex polygons, y up) that finds paths with navstar.
///
/// Build it from the arrays of a Godot `NavigationMesh` (`get_vertices()` and one
/// `get_polygon(i)` per polygon), from a `NavigationMesh` itself, or from navstar's flat
/// index form, then call `find_path(from, to)`. The points are in the mesh's own
/// coordinates (for a `NavigationRegion3D`, its local space).
///
/// Errors: `build_*` return `false` and print the reason with `push_error`;
/// `find_path` returns an empty array. In both cases `get_last_error()` says why, and it
/// is `""` after a call that succeeded.
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
    /// `true`: `find_path` returns exact shortest paths (navstar's optimal mode);
    /// `false` (the default): A* and the funnel, usually as short and often faster.
    #[var]
    #[init(val = Settings::default().optimal)]
    optimal: bool,
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
        let s = self.settings();
        report(self.nav.build_flat(
            positions(&vertices),
            indices.as_slice(),
            sizes.as_slice(),
            &s,
        ))
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
        let s = self.settings();
        path_or_empty(self.nav.find_path(array3(from), array3(to), &s))
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
    fn settings(&self) -> Settings {
        Settings {
            weld_distance: self.weld_distance,
            max_snap_distance: self.max_snap_distance,
            allow_partial: self.allow_partial,
            optimal: self.optimal,
        }
    }

    fn build_arrays(
        &mut self,
        vertices: &PackedVector3Array,
        polygons: Result<Vec<PackedInt32Array>, String>,
    ) -> bool {
        let s = self.settings();
        report(match polygons {
            Ok(p) => self.nav.build(
                positions(vertices),
                p.iter().map(PackedInt32Array::as_slice),
                &s,
            ),
            Err(message) => self.nav.fail_build(message),
        })
    }
}

// ---- conversions at the engine edge (Godot types in, plain Rust out) ----

fn array3(v: Vector3) -> [f32; 3] {
    [v.x, v.y, v.z]
}

fn positions(vertices: &PackedVector3Array) -> impl Iterator<Item = [f32; 3]> + '_ {
    vertices.as_slice().iter().map(|&v| array3(v))
}

fn path_or_empty(path: Result<&[navstar::glam::Vec3], FindError>) -> PackedVector3Array {
    match path {
        Ok(corners) => convert::points(corners).map(Vector3::from_array).collect(),
        Err(FindError::NoMesh) => {
            godot_error!("NavstarMesh.find_path: {}", FindError::NoMesh);
            PackedVector3Array::new()
        }
        // Off the mesh, unreachable...: an ordinary answer, left to get_last_error().
        Err(FindError::Query(_)) => PackedVector3Array::new(),
    }
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

/// Each element of a (typed or untyped) `Array` as a `PackedInt32Array`.
fn polygon_arrays(polygons: &AnyArray) -> Result<Vec<PackedInt32Array>, String> {
    polygons
        .iter_shared()
        .enumerate()
        .map(|(i, v)| {
            v.try_to::<PackedInt32Array>().map_err(|_| {
                format!(
                    "polygon {i} is a {:?}, not a PackedInt32Array",
                    v.get_type()
                )
            })
        })
        .collect()
}

/// `NavigationMesh` is an "experimental" class that gdext generates only with its
/// `experimental-godot-api` feature, so it is read through dynamic calls.
fn read_navigation_mesh(
    resource: Option<Gd<Resource>>,
) -> Result<(PackedVector3Array, Vec<PackedInt32Array>), String> {
    let mut resource = resource.ok_or("the NavigationMesh is null")?;
    if !resource.is_class("NavigationMesh") {
        return Err(format!(
            "expected a NavigationMesh, got a {}",
            resource.get_class()
        ));
    }
    let mut call = |method: &str, args: &[Variant]| {
        resource
            .try_call(method, args)
            .map_err(|e| format!("NavigationMesh.{method}(): {e}"))
    };
    let vertices = call("get_vertices", &[])?
        .try_to::<PackedVector3Array>()
        .map_err(|e| format!("NavigationMesh.get_vertices(): {e}"))?;
    let count = call("get_polygon_count", &[])?
        .try_to::<i64>()
        .map_err(|e| format!("NavigationMesh.get_polygon_count(): {e}"))?;
    let polygons = (0..count)
        .map(|i| {
            call("get_polygon", &[i.to_variant()])?
                .try_to::<PackedInt32Array>()
                .map_err(|e| format!("NavigationMesh.get_polygon({i}): {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((vertices, polygons))
}
