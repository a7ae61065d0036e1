//! Loading and saving meshes: files in any format navstar reads (`navstar::io`), bytes
//! of the binary `.navstar` format or of a text format, and the binary format back out.

use std::io::Cursor;
use std::path::Path;

use navstar::io::{self, MeshFormat};
use navstar::{MeshOptions, NavMesh, World};

use crate::navigator::{FindError, Navigator, Settings};

/// The first bytes of a saved world of tiles (`World::to_bytes`); a saved mesh starts
/// with `NAVSTAR`. Both are navstar's binary format, told apart by this.
const WORLD_MAGIC: &[u8] = b"NAVWORLD";

/// The names [`format`] knows, for error messages.
fn known_formats() -> String {
    MeshFormat::ALL
        .iter()
        .flat_map(|f| f.extensions().iter().copied())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The format named `name` (an extension without the dot, any case; `""` is the binary
/// `navstar` format).
///
/// # Errors
/// An unknown name, listing the known ones.
pub fn format(name: &str) -> Result<MeshFormat, String> {
    if name.is_empty() {
        return Ok(MeshFormat::Navstar);
    }
    MeshFormat::from_extension(name.trim_start_matches('.'))
        .ok_or_else(|| format!("unknown mesh format {name:?} (known: {})", known_formats()))
}

fn mesh_options(settings: &Settings) -> MeshOptions {
    let mut options = MeshOptions::default();
    options.weld_distance = settings.weld_distance;
    options
}

impl Navigator {
    /// Replaces the mesh by the one in the file at `path` (format from its extension).
    ///
    /// # Errors
    /// navstar's load error, naming the file, the line or the byte offset.
    pub fn load_file(&mut self, path: &str, settings: &Settings) -> Result<(), String> {
        let file = Path::new(path);
        if MeshFormat::from_path(file) == Some(MeshFormat::Navstar) {
            // A mesh or a world: read whole, then told apart by its first bytes.
            return match std::fs::read(file) {
                Ok(bytes) => self.load_bytes(&bytes, "", settings),
                Err(e) => self.set_mesh(Err(format!("{path}: {e}"))),
            };
        }
        let loaded = io::load_mesh_file(file, &mesh_options(settings));
        self.set_mesh(loaded.map_err(|e| e.to_string()))
    }

    /// Replaces the mesh by the one in `bytes`, in the format named `format_name` (see
    /// [`format`]).
    ///
    /// # Errors
    /// An unknown format, or navstar's load error.
    pub fn load_bytes(
        &mut self,
        bytes: &[u8],
        format_name: &str,
        settings: &Settings,
    ) -> Result<(), String> {
        if bytes.starts_with(WORLD_MAGIC) && format(format_name) == Ok(MeshFormat::Navstar) {
            return match World::from_bytes(bytes) {
                Ok(world) => {
                    self.install_world(world);
                    Ok(())
                }
                Err(e) => self.set_mesh(Err(e.to_string())),
            };
        }
        let loaded = format(format_name).and_then(|f| {
            let mesh = if f == MeshFormat::Navstar {
                io::load_navstar_bytes(bytes)
            } else {
                io::load_mesh(Cursor::new(bytes), f, &mesh_options(settings))
            };
            mesh.map_err(|e| e.to_string())
        });
        self.set_mesh(loaded)
    }

    /// The mesh in the binary `.navstar` format (current flags included), or the world
    /// of tiles (`World::to_bytes`) when the mesh is one.
    ///
    /// # Errors
    /// No mesh, or navstar's error.
    pub fn save_bytes(&mut self) -> Result<Vec<u8>, FindError> {
        let saved = match (&self.world, self.mesh()) {
            (Some(world), _) => Ok(world.to_bytes()),
            (None, None) => Err(FindError::NoMesh),
            (None, Some(mesh)) => {
                NavMesh::to_bytes(mesh).map_err(|e| FindError::Mesh(e.to_string()))
            }
        };
        match &saved {
            Ok(_) => self.last_error.clear(),
            Err(e) => self.last_error = e.to_string(),
        }
        saved
    }
}
