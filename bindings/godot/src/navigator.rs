//! The state behind one `NavstarMesh` object, in plain Rust: a mesh with its query, the
//! last error text and the status of the last path. Every Godot method is a one-line call
//! into here, so this is where the behaviour is unit-tested.

use navstar::glam::Vec3;
use navstar::{CornerDetail, MeshInput, MeshOptions, NavMesh, OffMeshLink, Query};

use crate::convert::{self, PolygonList};
pub use crate::options::Settings;

/// Why `find_path` gave no path.
#[derive(Debug, Clone, PartialEq)]
pub enum FindError {
    /// No mesh has been built (or the last build failed): a mistake in the calling script.
    NoMesh,
    /// navstar's answer: the point is off the mesh, not finite, the goal unreachable...
    Query(navstar::QueryError),
    /// A property or argument out of range (flags, area costs, indices), named.
    Setting(String),
    /// navstar refused an operation on the mesh (such as saving it).
    Mesh(String),
}

impl std::fmt::Display for FindError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FindError::NoMesh => {
                f.write_str("no mesh: build one first (a failed build leaves none)")
            }
            FindError::Query(e) => e.fmt(f),
            FindError::Setting(message) | FindError::Mesh(message) => f.write_str(message),
        }
    }
}

/// Builds a mesh from converted input.
///
/// # Errors
/// The conversion error given, or navstar's error text.
pub(crate) fn make_mesh(
    vertices: &[Vec3],
    list: Result<PolygonList, String>,
    extras: &Extras,
    settings: &Settings,
) -> Result<NavMesh, String> {
    let mut options = MeshOptions::default();
    options.weld_distance = settings.weld_distance;
    list.and_then(|list| {
        let mut input = MeshInput::new(vertices, &list.indices).with_polygon_sizes(&list.sizes);
        if let Some(areas) = &extras.areas {
            input = input.with_areas(areas);
        }
        if let Some(flags) = &extras.flags {
            input = input.with_flags(flags);
        }
        input = input.with_links(&extras.links);
        NavMesh::from_input(&input, &options).map_err(|e| e.to_string())
    })
}

/// What a mesh may be built with besides its polygons (all optional).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extras {
    /// An area id per polygon (`None`: area 0 everywhere).
    pub areas: Option<Vec<u8>>,
    /// Initial flags per polygon (`None`: navstar's default flags, 1).
    pub flags: Option<Vec<u32>>,
    /// Off-mesh links.
    pub links: Vec<OffMeshLink>,
}

/// Mesh, query and error state of one Godot object.
#[derive(Debug, Default)]
pub struct Navigator {
    /// The query owns a reference to its mesh.
    pub(crate) query: Option<Query>,
    pub(crate) last_error: String,
    pub(crate) last_partial: bool,
    /// Details of the corners of the last path (kept, reused, for the read-back methods).
    pub(crate) last_details: Vec<CornerDetail>,
    /// The turns of the last path round wall corners (with an agent radius only).
    pub(crate) last_arcs: Vec<navstar::PathArc>,
    /// Cost of the last path under its filter (0 after a failure).
    pub(crate) last_cost: f32,
    /// The world of tiles the mesh is a snapshot of, when built with `add_tile`.
    pub(crate) world: Option<navstar::World>,
    /// First and last corner of the last path (where a corridor made from it starts and
    /// ends); `None` after a failure.
    pub(crate) last_ends: Option<(Vec3, Vec3)>,
}

impl Navigator {
    /// Builds the mesh from per-polygon index arrays (the shape of
    /// `NavigationMesh.get_polygon(i)`), replacing any previous one. On failure the object
    /// is left without a mesh and the error is also kept for [`Navigator::last_error`].
    ///
    /// # Errors
    /// The text of the conversion or navstar error.
    pub fn build<'a>(
        &mut self,
        vertices: impl IntoIterator<Item = [f32; 3]>,
        polygons: impl IntoIterator<Item = &'a [i32]>,
        settings: &Settings,
    ) -> Result<(), String> {
        let list = convert::polygons(polygons).map_err(|e| e.to_string());
        self.build_list(
            convert::vertices(vertices),
            list,
            &Extras::default(),
            settings,
        )
    }

    /// [`Navigator::build`] with per-polygon areas and flags and off-mesh links.
    ///
    /// # Errors
    /// As [`Navigator::build`]; navstar names a bad area, a count mismatch or a link.
    pub fn build_with<'a>(
        &mut self,
        vertices: impl IntoIterator<Item = [f32; 3]>,
        polygons: impl IntoIterator<Item = &'a [i32]>,
        extras: &Extras,
        settings: &Settings,
    ) -> Result<(), String> {
        let list = convert::polygons(polygons).map_err(|e| e.to_string());
        self.build_list(convert::vertices(vertices), list, extras, settings)
    }

    /// Builds the mesh from navstar's flat form (`indices` polygon after polygon, `sizes`
    /// the corner count of each).
    ///
    /// # Errors
    /// As [`Navigator::build`].
    pub fn build_flat(
        &mut self,
        vertices: impl IntoIterator<Item = [f32; 3]>,
        indices: &[i32],
        sizes: &[i32],
        settings: &Settings,
    ) -> Result<(), String> {
        let list = convert::flat_polygons(indices, sizes).map_err(|e| e.to_string());
        self.build_list(
            convert::vertices(vertices),
            list,
            &Extras::default(),
            settings,
        )
    }

    /// Records a build that failed before reaching navstar (the caller could not even
    /// read its input): the object is left without a mesh, as after any failed build.
    ///
    /// # Errors
    /// Always: `message`.
    pub fn fail_build(&mut self, message: String) -> Result<(), String> {
        self.set_mesh(Err(message))
    }

    fn build_list(
        &mut self,
        vertices: Vec<Vec3>,
        list: Result<PolygonList, String>,
        extras: &Extras,
        settings: &Settings,
    ) -> Result<(), String> {
        self.set_mesh(make_mesh(&vertices, list, extras, settings))
    }

    /// Replaces the mesh by `mesh` (built or loaded), or by none with the error kept.
    ///
    /// # Errors
    /// The error given.
    pub fn set_mesh(&mut self, mesh: Result<NavMesh, String>) -> Result<(), String> {
        self.query = None;
        self.world = None;
        self.forget_path();
        match mesh {
            Ok(mesh) => {
                self.query = Some(Query::new(&mesh));
                self.last_error.clear();
                Ok(())
            }
            Err(message) => {
                self.last_error.clone_from(&message);
                Err(message)
            }
        }
    }

    /// Finds a path: its corners from the snapped start to the snapped goal (or to the
    /// reachable point closest to it, see [`Navigator::last_partial`]).
    ///
    /// # Errors
    /// [`FindError::NoMesh`] before a successful build, else navstar's
    /// [`navstar::QueryError`]; its text is kept for [`Navigator::last_error`].
    pub fn find_path(
        &mut self,
        from: [f32; 3],
        to: [f32; 3],
        settings: &Settings,
    ) -> Result<&[Vec3], FindError> {
        let options = self.begin(settings)?;
        let Navigator {
            query,
            last_error,
            last_partial,
            last_details,
            last_arcs,
            last_cost,
            last_ends,
            ..
        } = self;
        let query = query.as_mut().ok_or(FindError::NoMesh)?;
        match query.find_path(Vec3::from_array(from), Vec3::from_array(to), &options) {
            Ok(path) => {
                last_error.clear();
                *last_partial = path.status.is_partial();
                last_details.extend_from_slice(path.details);
                last_arcs.extend_from_slice(path.arcs);
                *last_cost = path.cost;
                *last_ends = ends(path.corners);
                Ok(path.corners)
            }
            Err(e) => {
                *last_error = e.to_string();
                Err(FindError::Query(e))
            }
        }
    }

    /// Starts a path query: forgets the last path, checks for a mesh, sets the query's
    /// landmark and fast-lane choices and converts the settings. On failure the error is kept for
    /// [`Navigator::last_error`].
    ///
    /// # Errors
    /// [`FindError::NoMesh`] or [`FindError::Setting`].
    pub(crate) fn begin(&mut self, settings: &Settings) -> Result<navstar::PathOptions, FindError> {
        self.forget_path();
        let outcome = match self.query.as_mut() {
            None => Err(FindError::NoMesh),
            Some(query) => settings
                .landmark_use()
                .and_then(|landmarks| {
                    match landmarks {
                        None => query.set_landmarks_by_size(),
                        Some(on) => query.set_landmarks(on),
                    }
                    query.set_fast_lane(settings.fast_lane);
                    settings.path_options()
                })
                .map_err(FindError::Setting),
        };
        if let Err(e) = &outcome {
            self.last_error = e.to_string();
        }
        outcome
    }

    /// Clears what the read-back methods report about the last path.
    pub(crate) fn forget_path(&mut self) {
        self.last_partial = false;
        self.last_details.clear();
        self.last_arcs.clear();
        self.last_cost = 0.0;
        self.last_ends = None;
    }

    /// The text of the error of the last build or path call, or "" when it succeeded.
    pub fn last_error(&self) -> &str {
        &self.last_error
    }

    /// Whether the last path found ends short of an unreachable goal.
    pub fn last_partial(&self) -> bool {
        self.last_partial
    }

    /// The built mesh, if any.
    pub fn mesh(&self) -> Option<&NavMesh> {
        self.query.as_ref().map(Query::mesh)
    }

    /// Number of polygons (0 without a mesh).
    pub fn polygon_count(&self) -> i64 {
        convert::count(self.mesh().map_or(0, NavMesh::polygon_count))
    }

    /// Number of vertices (0 without a mesh).
    pub fn vertex_count(&self) -> i64 {
        convert::count(self.mesh().map_or(0, NavMesh::vertex_count))
    }

    /// Number of islands, sets of connected polygons (0 without a mesh).
    pub fn island_count(&self) -> i64 {
        convert::count(self.mesh().map_or(0, NavMesh::island_count))
    }
}

/// The first and last corner of a path (`None` for no corners).
pub(crate) fn ends(corners: &[Vec3]) -> Option<(Vec3, Vec3)> {
    Some((*corners.first()?, *corners.last()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The L-shaped floor of navstar's crate docs: three unit squares, y up, as Godot's
    /// `NavigationMesh` would hold it (one index array per polygon).
    const L_VERTICES: [[f32; 3]; 8] = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [2.0, 0.0, 0.0],
        [0.0, 0.0, 1.0],
        [1.0, 0.0, 1.0],
        [2.0, 0.0, 1.0],
        [0.0, 0.0, 2.0],
        [1.0, 0.0, 2.0],
    ];
    const L_POLYGONS: [&[i32]; 3] = [&[0, 1, 4, 3], &[1, 2, 5, 4], &[3, 4, 7, 6]];

    fn l_floor() -> Navigator {
        let mut nav = Navigator::default();
        nav.build(L_VERTICES, L_POLYGONS, &Settings::default())
            .unwrap();
        nav
    }

    fn arrays(corners: &[Vec3]) -> Vec<[f32; 3]> {
        convert::points(corners).collect()
    }

    #[test]
    fn defaults_match_navstar() {
        let s = Settings::default();
        assert_eq!(s.weld_distance, 0.0);
        assert_eq!(s.max_snap_distance, f32::INFINITY);
        assert!(s.allow_partial);
    }

    #[test]
    fn empty_object_reports_no_mesh() {
        let mut nav = Navigator::default();
        assert_eq!(nav.polygon_count(), 0);
        assert_eq!(nav.vertex_count(), 0);
        assert_eq!(nav.island_count(), 0);
        assert_eq!(nav.last_error(), "");
        let err = nav
            .find_path([0.0; 3], [1.0, 0.0, 0.0], &Settings::default())
            .unwrap_err();
        assert_eq!(err, FindError::NoMesh);
        assert!(
            nav.last_error().starts_with("no mesh"),
            "{}",
            nav.last_error()
        );
    }

    #[test]
    fn builds_and_finds_the_corner_path() {
        let mut nav = l_floor();
        assert_eq!(nav.polygon_count(), 3);
        assert_eq!(nav.vertex_count(), 8);
        assert_eq!(nav.island_count(), 1);
        let path = nav
            .find_path([1.8, 0.0, 0.5], [0.5, 0.0, 1.8], &Settings::default())
            .unwrap();
        assert_eq!(
            arrays(path),
            [[1.8, 0.0, 0.5], [1.0, 0.0, 1.0], [0.5, 0.0, 1.8]]
        );
        assert_eq!(nav.last_error(), "");
        assert!(!nav.last_partial());
    }

    #[test]
    fn landmarks_are_prepared_and_switched_without_changing_exact_paths() {
        use crate::options::{LANDMARKS_BY_SIZE, LANDMARKS_OFF, LANDMARKS_ON};
        assert_eq!(
            Navigator::default().prepare_landmarks(),
            Err(FindError::NoMesh)
        );
        let mut nav = l_floor();
        assert_eq!(nav.prepare_landmarks(), Ok(true));
        assert!(nav.mesh().unwrap().landmark_bytes() > 0);
        let mut answers = Vec::new();
        for landmarks in [LANDMARKS_BY_SIZE, LANDMARKS_ON, LANDMARKS_OFF] {
            let settings = Settings {
                path_mode: crate::options::PATH_MODE_OPTIMAL,
                landmarks,
                ..Settings::default()
            };
            let path = nav
                .find_path([1.8, 0.0, 0.5], [0.5, 0.0, 1.8], &settings)
                .unwrap();
            answers.push(arrays(path));
        }
        assert!(answers.iter().all(|a| *a == answers[0]), "{answers:?}");
        let bad = Settings {
            landmarks: 3,
            ..Settings::default()
        };
        let err = nav
            .find_path([1.8, 0.0, 0.5], [0.5, 0.0, 1.8], &bad)
            .unwrap_err();
        assert!(err.to_string().starts_with("landmarks 3"), "{err}");
        assert_eq!(nav.last_error(), err.to_string());
    }

    #[test]
    fn optimal_setting_finds_the_same_corner_path() {
        let mut nav = l_floor();
        let optimal = Settings {
            path_mode: crate::options::PATH_MODE_OPTIMAL,
            ..Settings::default()
        };
        let path = nav
            .find_path([1.8, 0.0, 0.5], [0.5, 0.0, 1.8], &optimal)
            .unwrap();
        assert_eq!(
            arrays(path),
            [[1.8, 0.0, 0.5], [1.0, 0.0, 1.0], [0.5, 0.0, 1.8]]
        );
    }

    #[test]
    fn flat_form_gives_the_same_mesh() {
        let mut nav = Navigator::default();
        let indices = [0, 1, 4, 3, 1, 2, 5, 4, 3, 4, 7, 6];
        nav.build_flat(L_VERTICES, &indices, &[4, 4, 4], &Settings::default())
            .unwrap();
        assert_eq!(nav.polygon_count(), 3);
        let path = nav
            .find_path([1.8, 0.0, 0.5], [0.5, 0.0, 1.8], &Settings::default())
            .unwrap();
        assert_eq!(path.len(), 3);
    }

    #[test]
    fn either_winding_is_accepted() {
        // Godot's baked polygons are clockwise seen from above; navstar takes both.
        let reversed: Vec<Vec<i32>> = L_POLYGONS
            .iter()
            .map(|p| p.iter().rev().copied().collect())
            .collect();
        let mut nav = Navigator::default();
        nav.build(
            L_VERTICES,
            reversed.iter().map(Vec::as_slice),
            &Settings::default(),
        )
        .unwrap();
        let path = nav
            .find_path([1.8, 0.0, 0.5], [0.5, 0.0, 1.8], &Settings::default())
            .unwrap();
        assert_eq!(arrays(path)[1], [1.0, 0.0, 1.0]);
    }

    #[test]
    fn build_errors_leave_no_mesh_and_say_why() {
        let mut nav = l_floor();
        let bad: [&[i32]; 1] = [&[0, 1, 9]];
        let err = nav
            .build(L_VERTICES, bad, &Settings::default())
            .unwrap_err();
        assert_eq!(
            err,
            "polygon 0, corner 2: vertex index 9 is out of range (vertex count 8)"
        );
        assert_eq!(nav.last_error(), err);
        assert_eq!(nav.polygon_count(), 0);
        assert_eq!(
            nav.find_path([0.5, 0.0, 0.5], [0.6, 0.0, 0.5], &Settings::default()),
            Err(FindError::NoMesh)
        );

        let negative: [&[i32]; 1] = [&[0, -1, 2]];
        let err = nav
            .build(L_VERTICES, negative, &Settings::default())
            .unwrap_err();
        assert_eq!(err, "polygon 0, corner 1: vertex index -1 is negative");

        let none: [&[i32]; 0] = [];
        assert_eq!(
            nav.build(L_VERTICES, none, &Settings::default())
                .unwrap_err(),
            "the mesh has zero polygons"
        );

        let nan = [[f32::NAN, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]];
        let tri: [&[i32]; 1] = [&[0, 1, 2]];
        assert!(
            nav.build(nan, tri, &Settings::default())
                .unwrap_err()
                .contains("non-finite")
        );

        let weld = Settings {
            weld_distance: -1.0,
            ..Settings::default()
        };
        assert!(
            nav.build(L_VERTICES, L_POLYGONS, &weld)
                .unwrap_err()
                .starts_with("invalid mesh option")
        );

        // A good build afterwards clears the error.
        nav.build(L_VERTICES, L_POLYGONS, &Settings::default())
            .unwrap();
        assert_eq!(nav.last_error(), "");
        assert_eq!(nav.polygon_count(), 3);
    }

    #[test]
    fn failed_reads_clear_the_mesh() {
        let mut nav = l_floor();
        assert_eq!(
            nav.fail_build("polygon 2 is a INT, not a PackedInt32Array".into()),
            Err("polygon 2 is a INT, not a PackedInt32Array".into())
        );
        assert_eq!(nav.polygon_count(), 0);
        assert_eq!(
            nav.last_error(),
            "polygon 2 is a INT, not a PackedInt32Array"
        );
    }

    #[test]
    fn flat_form_errors() {
        let mut nav = Navigator::default();
        let s = Settings::default();
        assert_eq!(
            nav.build_flat(L_VERTICES, &[0, 1, 4], &[4], &s)
                .unwrap_err(),
            "the polygon sizes need 4 indices but 3 were given"
        );
        assert_eq!(
            nav.build_flat(L_VERTICES, &[0, 1, 4], &[-3], &s)
                .unwrap_err(),
            "polygon 0 has a negative size (-3)"
        );
    }

    #[test]
    fn query_errors_are_kept_and_cleared() {
        let mut nav = l_floor();
        let s = Settings::default();
        let err = nav
            .find_path([f32::NAN, 0.0, 0.0], [0.5, 0.0, 0.5], &s)
            .unwrap_err();
        assert!(matches!(
            err,
            FindError::Query(navstar::QueryError::NonFinitePoint(_))
        ));
        assert_eq!(
            nav.last_error(),
            "the start point has a non-finite coordinate"
        );

        let mut near = s;
        near.max_snap_distance = 0.5;
        let err = nav
            .find_path([0.5, 0.0, 0.5], [0.5, 5.0, 0.5], &near)
            .unwrap_err();
        assert!(matches!(
            err,
            FindError::Query(navstar::QueryError::NotOnMesh { .. })
        ));
        assert!(
            nav.last_error().starts_with("the goal point is 5 units"),
            "{}",
            nav.last_error()
        );

        near.max_snap_distance = -1.0;
        assert!(
            nav.find_path([0.5, 0.0, 0.5], [0.6, 0.0, 0.5], &near)
                .is_err()
        );
        assert!(nav.last_error().starts_with("invalid path option"));

        // Snapping: a point above the floor is moved onto it.
        let path = nav.find_path([0.5, 3.0, 0.5], [0.6, 0.0, 0.5], &s).unwrap();
        assert_eq!(arrays(path), [[0.5, 0.0, 0.5], [0.6, 0.0, 0.5]]);
        assert_eq!(nav.last_error(), "");
    }

    #[test]
    fn unreachable_goal_partial_or_error() {
        use crate::test_meshes::{TWO_SQUARE_POLYGONS, TWO_SQUARES};
        let mut nav = Navigator::default();
        let mut s = Settings::default();
        nav.build(TWO_SQUARES, TWO_SQUARE_POLYGONS, &s).unwrap();
        assert_eq!(nav.island_count(), 2);

        let path = nav.find_path([0.5, 0.0, 0.5], [3.5, 0.0, 0.5], &s).unwrap();
        assert_eq!(arrays(path), [[0.5, 0.0, 0.5], [1.0, 0.0, 0.5]]);
        assert!(nav.last_partial());
        assert_eq!(nav.last_error(), "");

        s.allow_partial = false;
        assert_eq!(
            nav.find_path([0.5, 0.0, 0.5], [3.5, 0.0, 0.5], &s),
            Err(FindError::Query(navstar::QueryError::NoPath))
        );
        assert!(!nav.last_partial());
        assert_eq!(nav.last_error(), "the goal is unreachable from the start");
    }

    #[test]
    fn same_point_gives_two_equal_corners() {
        let mut nav = l_floor();
        let path = nav
            .find_path([0.5, 0.0, 0.5], [0.5, 0.0, 0.5], &Settings::default())
            .unwrap();
        assert_eq!(arrays(path), [[0.5, 0.0, 0.5], [0.5, 0.0, 0.5]]);
    }
}
