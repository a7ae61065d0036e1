//! File loaders: Wavefront OBJ, Polyanya `.mesh` (versions 2 and 3), Moving AI grid maps
//! (`.map`), navstar's own binary format (`.navstar`, see [`load_navstar_bytes`]),
//! Recast/Detour navmeshes (`.bin`, see [`detour`]) and Moving AI scenarios (`.scen`). Loaders build meshes with the mesh's own
//! builder; this module may use `mesh`, `geometry` and `error`, and nothing that searches.
//!
//! Loading a polygon format has two steps. A parser turns text into a [`PolygonSoup`]:
//! vertex positions and polygon corner lists exactly as the file gives them, with syntax
//! checked but geometry not. [`PolygonSoup::into_mesh`] then hands the soup to
//! [`NavMesh::from_polygons`], the same builder every other caller uses, which checks
//! convexity, finds neighbours and so on. A grid map is parsed into a [`GridMap`] and
//! built with [`GridMap::to_mesh`] ([`NavMesh::from_grid`]). [`load_mesh_file`] and
//! [`load_mesh`] do both steps at once for every [`MeshFormat`].
//!
//! Scenario files are not meshes: [`parse_scenario`] reads their problems, whose points
//! apply to the meshes of the grid maps ([`ScenarioProblem::grid_start`]) and of the
//! Polyanya meshes ([`ScenarioProblem::mesh_start`]).
//!
//! ```
//! use navstar::io::{MeshFormat, load_mesh};
//! use navstar::MeshOptions;
//!
//! let obj = "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 2 3 4\n";
//! let mesh = load_mesh(obj.as_bytes(), MeshFormat::Obj, &MeshOptions::default())?;
//! assert_eq!(mesh.polygon_count(), 1);
//! # Ok::<(), navstar::io::LoadError>(())
//! ```
//!
//! # Conventions
//!
//! * Parsers stream: they read line by line or token by token from any [`BufRead`] and
//!   never hold the whole file. Counts announced in a header only reserve a bounded amount
//!   of memory; running out of memory is an error ([`MeshError::OutOfMemory`]), not an
//!   abort.
//! * Parse errors carry the 1-based line number. Builder errors ([`LoadError::Mesh`])
//!   number polygons and vertices from 0 in file order (for Polyanya version 3, the
//!   polygons are the traversable faces only: see [`PolygonSoup::source_polygons`]).
//! * 2D formats (Polyanya `.mesh`, Moving AI `.map`) are always built Z-up: a file
//!   point `(x, y)` becomes the vertex `(x, y, 0)`, so coordinates from the benchmark
//!   scenario files can be used directly as `Vec3::new(x, y, 0.0)` (for grid maps, the
//!   centre of cell `(x, y)` is `(x + 0.5, y + 0.5, 0)`). The up axis of the caller's
//!   [`MeshOptions`] is ignored for them; the other options apply.
//! * The `*_bytes` parsers never panic, whatever the input; they are meant for fuzzing.

pub mod detour;
mod lexer;
pub mod movingai;
pub mod obj;
pub mod polyanya;
pub mod scenario;
mod world;

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use glam::Vec3;

use crate::UpAxis;
use crate::error::MeshError;
use crate::mesh::{BinaryError, MeshOptions, NavMesh};

pub use detour::{
    DetourAgent, DetourData, DetourError, DetourMesh, DetourParams, DetourTile, DetourWorld,
    load_detour_bytes, load_detour_set_bytes, load_detour_tile_bytes,
};
pub use movingai::{GridMap, parse_movingai_map, parse_movingai_map_bytes};
pub use obj::{parse_obj, parse_obj_bytes};
pub use polyanya::{parse_polyanya_mesh, parse_polyanya_mesh_bytes};
pub use scenario::{ScenarioProblem, parse_scenario, parse_scenario_bytes};
pub use world::WORLD_FORMAT_VERSION;

/// The raw result of parsing a mesh file, before any geometric validation.
///
/// The fields have the layout [`NavMesh::from_polygons`] takes: polygon `i` has
/// `polygon_sizes[i]` corners, which are the next entries of `indices` (0-based indices
/// into `vertices`). A parser guarantees that every index is in range and every polygon
/// has at least 3 corners; nothing else (convexity, repeated vertices, ...) is checked
/// until [`PolygonSoup::into_mesh`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PolygonSoup {
    /// Vertex positions in world units, in file order.
    pub vertices: Vec<Vec3>,
    /// The corners of all polygons, polygon after polygon, in file order.
    pub indices: Vec<u32>,
    /// The number of corners of each polygon, in file order.
    pub polygon_sizes: Vec<u32>,
    /// The up axis the format itself fixes, if any: `Some(UpAxis::Z)` for 2D formats,
    /// whose points lie in the z = 0 plane. When set it overrides
    /// [`MeshOptions::up_axis`] in [`PolygonSoup::into_mesh`].
    pub up_axis: Option<UpAxis>,
    /// For formats that keep only some of the file's polygons (Polyanya version 3 drops
    /// its obstacle faces): for each polygon, its 0-based position among the file's
    /// polygons. Empty when polygon `i` is the file's polygon `i`, as for every other
    /// format. See [`PolygonSoup::source_polygon`].
    pub source_polygons: Vec<u32>,
}

impl PolygonSoup {
    /// The polygons and vertices of a built mesh, with its up axis: the arrays that
    /// [`PolygonSoup::into_mesh`] (or [`NavMesh::from_polygons`]) builds the same
    /// polygons from again (its areas, flags and links are not included).
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0)];
    /// # let mesh = NavMesh::from_polygons(&vertices, &[0, 1, 4, 3, 1, 2, 5, 4], &[4, 4], &MeshOptions::default())?;
    /// // `mesh`: two unit squares side by side (y up).
    /// use navstar::io::PolygonSoup;
    ///
    /// let soup = PolygonSoup::from_mesh(&mesh);
    /// assert_eq!(soup.polygon_sizes, [4, 4]);
    /// let again = soup.into_mesh(&MeshOptions::default())?;
    /// assert_eq!(again.polygon_count(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn from_mesh(mesh: &NavMesh) -> PolygonSoup {
        let data = mesh.data();
        // A snapshot of a world: its tiles' vertices one tile after another.
        let vertices = (0..data.tiles.len() as u32)
            .flat_map(|slot| mesh.tile_vertices(slot).iter().copied())
            .collect();
        PolygonSoup {
            vertices,
            indices: mesh
                .polygon_ids()
                .flat_map(|p| mesh.polygon_vertices(p).iter())
                .map(|&v| data.vertex_index(v) as u32)
                .collect(),
            polygon_sizes: mesh
                .polygon_ids()
                .map(|p| mesh.polygon_vertices(p).len() as u32)
                .collect(),
            up_axis: Some(mesh.up_axis()),
            source_polygons: Vec::new(),
        }
    }

    /// The corner lists of the polygons, in order. Stops early if `polygon_sizes` asks
    /// for more indices than there are (only possible for a hand-made soup).
    pub fn polygons(&self) -> impl Iterator<Item = &[u32]> + '_ {
        let mut start = 0usize;
        self.polygon_sizes.iter().map_while(move |&size| {
            let end = start.checked_add(size as usize)?;
            let corners = self.indices.get(start..end)?;
            start = end;
            Some(corners)
        })
    }

    /// The 0-based position in the file of polygon `polygon` (which is also its polygon
    /// number in the mesh built from this soup): `source_polygons[polygon]`, or
    /// `polygon` itself when `source_polygons` is empty. `None` if there is no such
    /// polygon.
    pub fn source_polygon(&self, polygon: u32) -> Option<u32> {
        if polygon as usize >= self.polygon_sizes.len() {
            return None;
        }
        if self.source_polygons.is_empty() {
            return Some(polygon);
        }
        self.source_polygons.get(polygon as usize).copied()
    }

    /// Builds a navigation mesh with [`NavMesh::from_polygons`], consuming the soup.
    ///
    /// `options` apply as given, except that a format-fixed [`PolygonSoup::up_axis`]
    /// replaces `options.up_axis`.
    ///
    /// # Errors
    /// [`LoadError::Mesh`] with the builder's reason; polygon and vertex numbers in it
    /// are 0-based positions in the file.
    pub fn into_mesh(self, options: &MeshOptions) -> Result<NavMesh, LoadError> {
        let mut options = options.clone();
        if let Some(up) = self.up_axis {
            options.up_axis = up;
        }
        let mesh =
            NavMesh::from_polygons(&self.vertices, &self.indices, &self.polygon_sizes, &options)?;
        Ok(mesh)
    }
}

/// Why a mesh file could not be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// Opening or reading failed.
    #[error("{}", io_message(.path.as_deref(), .source))]
    Io {
        /// The file, when the error came from [`load_mesh_file`]; `None` for readers.
        path: Option<PathBuf>,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The text does not follow the format.
    #[error("line {line}: {message}")]
    Parse {
        /// 1-based line number where the problem was found.
        line: u64,
        /// What is wrong, naming the vertex or polygon being read where that helps.
        message: String,
    },
    /// The file was read, but the builder rejected its polygons.
    #[error("invalid mesh: {0}")]
    Mesh(#[from] MeshError),
    /// A navstar binary file (`.navstar`) was refused; the error names the section, the
    /// record and the byte offset.
    #[error("invalid navstar file: {0}")]
    Binary(#[from] BinaryError),
    /// Recast/Detour data (`.bin`) was refused; the error names the field and the byte
    /// offset. See [`detour`].
    #[error("invalid Detour data: {0}")]
    Detour(#[from] DetourError),
    /// [`load_mesh_file`] could not tell the format from the file name.
    #[error(
        "cannot tell the mesh format of '{}' from its extension (known: {})",
        path.display(),
        known_extensions()
    )]
    UnknownFormat {
        /// The file name that was given.
        path: PathBuf,
    },
}

impl From<std::io::Error> for LoadError {
    /// An I/O error with no path attached.
    fn from(source: std::io::Error) -> Self {
        LoadError::Io { path: None, source }
    }
}

impl LoadError {
    /// A parse error at `line`.
    pub(crate) fn parse(line: u64, message: impl Into<String>) -> Self {
        LoadError::Parse {
            line,
            message: message.into(),
        }
    }

    /// Attaches `path` to an I/O error that has none.
    fn with_path(self, path: &Path) -> Self {
        match self {
            LoadError::Io { path: None, source } => LoadError::Io {
                path: Some(path.to_path_buf()),
                source,
            },
            other => other,
        }
    }
}

fn io_message(path: Option<&Path>, source: &std::io::Error) -> String {
    match path {
        Some(path) => format!("cannot read '{}': {source}", path.display()),
        None => format!("read error: {source}"),
    }
}

fn known_extensions() -> String {
    let all: Vec<String> = MeshFormat::ALL
        .iter()
        .flat_map(|f| f.extensions())
        .map(|e| format!(".{e}"))
        .collect();
    all.join(", ")
}

/// A navigation mesh file format that navstar can read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MeshFormat {
    /// Wavefront OBJ (`.obj`): 3D polygons, used as given; the up axis comes from the
    /// [`MeshOptions`]. See [`obj`].
    Obj,
    /// Polyanya navigation mesh (`.mesh`, format versions 2 and 3): 2D convex polygons,
    /// built Z-up with z = 0. See [`polyanya`].
    PolyanyaMesh,
    /// Moving AI grid map (`.map`): passable cells merged into rectangles by
    /// [`NavMesh::from_grid`], built Z-up with z = 0 and unit cells. See [`movingai`].
    MovingAiMap,
    /// navstar's binary format (`.navstar`), written by [`NavMesh::to_bytes`]: a built
    /// mesh with its derived tables, checked rather than rebuilt. The file fixes the up
    /// axis and every other option; the caller's [`MeshOptions`] are ignored. See
    /// [`load_navstar_bytes`].
    Navstar,
    /// Recast/Detour data (`.bin`): one tile's data (`dtCreateNavMeshData`) or
    /// RecastDemo's multi-tile set file, told apart by the magic; built Y-up (a set as a
    /// world, whose snapshot is the mesh). See [`detour`].
    Detour,
}

/// Everything that differs between formats, in one place: adding a format is one
/// variant plus one arm in [`MeshFormat::spec`] (and its entry in [`MeshFormat::ALL`]).
struct FormatSpec {
    /// File name extensions, lower case, without the dot.
    extensions: &'static [&'static str],
    /// The parser.
    parser: Parser,
}

/// What a format's parser produces, and so how its mesh is built.
enum Parser {
    /// Polygons, built with [`PolygonSoup::into_mesh`].
    Polygons(fn(&mut dyn BufRead) -> Result<PolygonSoup, LoadError>),
    /// Grid cells, built with [`GridMap::to_mesh`].
    Grid(fn(&mut dyn BufRead) -> Result<GridMap, LoadError>),
    /// A saved mesh, loaded whole with [`load_navstar_bytes`].
    Saved,
    /// Detour data, loaded whole with [`load_detour_bytes`].
    Detour,
}

impl MeshFormat {
    /// Every supported format.
    pub const ALL: &'static [MeshFormat] = &[
        MeshFormat::Obj,
        MeshFormat::PolyanyaMesh,
        MeshFormat::MovingAiMap,
        MeshFormat::Navstar,
        MeshFormat::Detour,
    ];

    fn spec(self) -> FormatSpec {
        match self {
            MeshFormat::Obj => FormatSpec {
                extensions: &["obj"],
                parser: Parser::Polygons(|reader| parse_obj(reader)),
            },
            MeshFormat::PolyanyaMesh => FormatSpec {
                extensions: &["mesh"],
                parser: Parser::Polygons(|reader| parse_polyanya_mesh(reader)),
            },
            MeshFormat::MovingAiMap => FormatSpec {
                extensions: &["map"],
                parser: Parser::Grid(|reader| parse_movingai_map(reader)),
            },
            MeshFormat::Navstar => FormatSpec {
                extensions: &["navstar"],
                parser: Parser::Saved,
            },
            MeshFormat::Detour => FormatSpec {
                extensions: &["bin"],
                parser: Parser::Detour,
            },
        }
    }

    /// The file name extensions of this format, lower case and without the dot.
    pub fn extensions(self) -> &'static [&'static str] {
        self.spec().extensions
    }

    /// The format whose extension is `extension` (without the dot, any case).
    pub fn from_extension(extension: &str) -> Option<MeshFormat> {
        MeshFormat::ALL.iter().copied().find(|format| {
            format
                .extensions()
                .iter()
                .any(|e| e.eq_ignore_ascii_case(extension))
        })
    }

    /// The format named by the extension of `path` (`.obj`, `.mesh`, `.map`, `.navstar`,
    /// `.bin`; any case).
    pub fn from_path(path: &Path) -> Option<MeshFormat> {
        MeshFormat::from_extension(path.extension()?.to_str()?)
    }

    /// Parses `reader` in this format, without building a mesh.
    ///
    /// For [`MeshFormat::MovingAiMap`] the soup is [`GridMap::to_cell_soup`]: one square
    /// per passable cell. It covers the same area as the mesh [`load_mesh`] builds, but
    /// that one merges the cells into rectangles; use [`parse_movingai_map`] to get the
    /// cells themselves. For [`MeshFormat::Navstar`] the file is loaded (and checked)
    /// and the soup holds the mesh's polygons and vertices.
    ///
    /// # Errors
    /// [`LoadError::Parse`] or [`LoadError::Io`]; see the format's module.
    /// [`LoadError::Binary`] for a refused `.navstar` file.
    pub fn parse(self, mut reader: impl BufRead) -> Result<PolygonSoup, LoadError> {
        match self.spec().parser {
            Parser::Polygons(parse) => parse(&mut reader),
            Parser::Grid(parse) => parse(&mut reader)?.to_cell_soup(),
            Parser::Saved => Ok(PolygonSoup::from_mesh(&load_navstar(&mut reader)?)),
            Parser::Detour => Ok(PolygonSoup::from_mesh(&load_detour(
                &mut reader,
                &MeshOptions::default(),
            )?)),
        }
    }

    /// Parses `reader` in this format and builds the mesh.
    fn load(self, mut reader: impl BufRead, options: &MeshOptions) -> Result<NavMesh, LoadError> {
        match self.spec().parser {
            Parser::Polygons(parse) => parse(&mut reader)?.into_mesh(options),
            Parser::Grid(parse) => parse(&mut reader)?.to_mesh(options),
            Parser::Saved => load_navstar(&mut reader),
            Parser::Detour => load_detour(&mut reader, options),
        }
    }
}

/// Reads `reader` to its end and loads the bytes with [`load_navstar_bytes`].
fn load_navstar(reader: &mut dyn BufRead) -> Result<NavMesh, LoadError> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes)?;
    load_navstar_bytes(&bytes)
}

/// Reads `reader` to its end and loads the bytes with [`load_detour_bytes`]: the tile's
/// mesh, or the snapshot of the set's world.
fn load_detour(reader: &mut dyn BufRead, options: &MeshOptions) -> Result<NavMesh, LoadError> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes)?;
    Ok(load_detour_bytes(&bytes, options)?.mesh())
}

/// Loads a mesh saved in navstar's binary format ([`NavMesh::to_bytes`],
/// [`NavMesh::write_to`]). The file holds the derived tables too (neighbours, portals,
/// islands, the spatial index); they are checked against the polygons, never trusted,
/// which is much faster than building the mesh again. Never panics, whatever the bytes.
///
/// ```
/// use navstar::{MeshOptions, NavMesh};
/// use navstar::glam::Vec3;
///
/// let vertices = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z];
/// let mesh = NavMesh::from_polygons(&vertices, &[0, 1, 2, 3], &[4], &MeshOptions::default())?;
/// let loaded = navstar::io::load_navstar_bytes(&mesh.to_bytes()?)?;
/// assert_eq!(loaded.polygon_vertices(0), mesh.polygon_vertices(0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`LoadError::Binary`] naming the section, the record and the byte offset at fault
/// (a mesh check the builder also makes is [`BinaryError::Mesh`]).
pub fn load_navstar_bytes(bytes: &[u8]) -> Result<NavMesh, LoadError> {
    Ok(NavMesh::from_navstar_bytes(bytes)?)
}

/// Reads a mesh in `format` from `reader` and builds it with `options`.
///
/// The reader is consumed up to the end of the mesh; a [`BufReader`] around a file, a
/// byte slice or a `Cursor` all work. Polygon formats are parsed and built with
/// [`PolygonSoup::into_mesh`], grid maps with [`GridMap::to_mesh`].
///
/// # Errors
/// [`LoadError::Io`] (without a path) if reading fails, [`LoadError::Parse`] with the
/// line number for malformed text, [`LoadError::Mesh`] if the builder rejects the
/// polygons.
pub fn load_mesh(
    reader: impl BufRead,
    format: MeshFormat,
    options: &MeshOptions,
) -> Result<NavMesh, LoadError> {
    format.load(reader, options)
}

/// Opens `path`, picks the format from its extension (see [`MeshFormat::from_path`]),
/// and loads the mesh with `options`. The file is read once, streaming, and closed
/// before returning.
///
/// # Errors
/// [`LoadError::UnknownFormat`] for an unknown extension, [`LoadError::Io`] naming
/// `path` if it cannot be opened or read, otherwise as [`load_mesh`].
///
/// # Example
/// ```
/// use navstar::{io::load_mesh_file, MeshOptions};
/// use std::path::Path;
///
/// // The arena of the Polyanya benchmark, shipped with the crate.
/// let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/arena.mesh");
/// let mesh = load_mesh_file(&path, &MeshOptions::default())?;
/// assert!(mesh.polygon_count() > 0);
/// // A 2D format: built Z-up whatever the options say.
/// assert_eq!(mesh.up_axis(), navstar::UpAxis::Z);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn load_mesh_file(path: &Path, options: &MeshOptions) -> Result<NavMesh, LoadError> {
    let format = MeshFormat::from_path(path).ok_or_else(|| LoadError::UnknownFormat {
        path: path.to_path_buf(),
    })?;
    if format == MeshFormat::Navstar {
        // Read whole, in one allocation of the file's size.
        let bytes = std::fs::read(path).map_err(|e| LoadError::from(e).with_path(path))?;
        return load_navstar_bytes(&bytes);
    }
    let file = File::open(path).map_err(|e| LoadError::from(e).with_path(path))?;
    load_mesh(BufReader::new(file), format, options).map_err(|e| e.with_path(path))
}

/// Largest vertex count the builder accepts (`u32::MAX` itself is reserved).
const MAX_VERTICES: usize = u32::MAX as usize - 1;
/// Largest total number of polygon corners the builder accepts.
const MAX_CORNERS: usize = u32::MAX as usize;
/// At most this many items are reserved up front because a header announced them; the
/// rest of the memory is only taken as the items are actually read.
const MAX_PRERESERVE: usize = 1 << 16;

/// Appends `value`, growing `vec` with a fallible reservation so that a huge file fails
/// with [`MeshError::OutOfMemory`] instead of aborting the process.
fn try_push<T>(vec: &mut Vec<T>, value: T, what: &'static str) -> Result<(), LoadError> {
    // `try_reserve` grows geometrically, so pushing stays amortised O(1).
    vec.try_reserve(1)
        .map_err(|_| MeshError::OutOfMemory(what))?;
    vec.push(value);
    Ok(())
}

/// Reserves room for `announced` items (a count from a file header), but never more than
/// [`MAX_PRERESERVE`]: a header may lie.
fn reserve_announced<T>(
    vec: &mut Vec<T>,
    announced: u64,
    what: &'static str,
) -> Result<(), LoadError> {
    let count = usize::try_from(announced).map_or(MAX_PRERESERVE, |n| n.min(MAX_PRERESERVE));
    vec.try_reserve(count)
        .map_err(|_| MeshError::OutOfMemory(what))?;
    Ok(())
}

/// A token for an error message: lossy UTF-8, quoted and escaped.
fn quoted(token: &[u8]) -> String {
    format!("{:?}", String::from_utf8_lossy(token))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_from_extensions() {
        assert_eq!(
            MeshFormat::from_path(Path::new("a/b.OBJ")),
            Some(MeshFormat::Obj)
        );
        assert_eq!(
            MeshFormat::from_path(Path::new("arena.mesh")),
            Some(MeshFormat::PolyanyaMesh)
        );
        assert_eq!(
            MeshFormat::from_path(Path::new("arena.map")),
            Some(MeshFormat::MovingAiMap)
        );
        assert_eq!(MeshFormat::from_path(Path::new("arena.map.scen")), None);
        assert_eq!(MeshFormat::from_path(Path::new("mesh")), None);
        for &format in MeshFormat::ALL {
            for ext in format.extensions() {
                assert_eq!(MeshFormat::from_extension(ext), Some(format));
            }
        }
    }

    #[test]
    fn error_messages() {
        let e = LoadError::parse(7, "bad");
        assert_eq!(e.to_string(), "line 7: bad");
        let e = LoadError::from(std::io::Error::other("boom")).with_path(Path::new("x.obj"));
        assert_eq!(e.to_string(), "cannot read 'x.obj': boom");
        let e = LoadError::UnknownFormat {
            path: "a.txt".into(),
        };
        assert!(e.to_string().contains(".obj, .mesh, .map"), "{e}");
    }

    #[test]
    fn polygons_iterates_and_stops_on_short_indices() {
        let soup = PolygonSoup {
            indices: vec![0, 1, 2, 2, 3, 0, 1],
            polygon_sizes: vec![3, 4, 3],
            ..Default::default()
        };
        let polys: Vec<&[u32]> = soup.polygons().collect();
        assert_eq!(polys, [&[0, 1, 2][..], &[2, 3, 0, 1][..]]);
    }

    #[test]
    fn header_reservation_is_capped() {
        let mut v: Vec<u32> = Vec::new();
        reserve_announced(&mut v, u64::MAX, "test").unwrap();
        assert!(v.capacity() >= MAX_PRERESERVE && v.capacity() < 2 * MAX_PRERESERVE);
    }
}
