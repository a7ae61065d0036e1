//! `NavstarMeshResource`: a navigation mesh as a Godot `Resource`, saved in `.tres` /
//! `.res` files as navstar's binary format in a `PackedByteArray` property.

use godot::classes::{IResource, Resource};
use godot::prelude::*;

use crate::NavstarMesh;

/// A navigation mesh stored as a resource: `data` holds the mesh in navstar's binary
/// format (what `NavstarMesh.save_to_bytes()` writes), so `ResourceSaver.save()` and
/// `load()` keep it, and an exported property of this type can be set in the inspector.
/// Make one from a `NavstarMesh`, a `NavigationMesh` or a `NavigationPolygon`; turn it
/// into a `NavstarMesh` with `create_mesh()`. Loading the binary format is much faster
/// than building the mesh again.
#[derive(GodotClass)]
#[class(base = Resource, init)]
pub struct NavstarMeshResource {
    /// The mesh in navstar's binary format (empty: no mesh).
    #[export]
    data: PackedByteArray,
    base: Base<Resource>,
}

#[godot_api]
impl IResource for NavstarMeshResource {}

#[godot_api]
impl NavstarMeshResource {
    /// A resource holding `mesh`'s current mesh (its run-time flags included); `null`
    /// (with an error printed) when `mesh` is null or has no mesh.
    #[func]
    fn from_mesh(mesh: Option<Gd<NavstarMesh>>) -> Option<Gd<NavstarMeshResource>> {
        let Some(mut mesh) = mesh else {
            godot_error!("NavstarMeshResource.from_mesh: the mesh is null");
            return None;
        };
        let bytes = mesh.bind_mut().nav.save_bytes();
        match bytes {
            Ok(bytes) => Some(Gd::from_init_fn(|base| NavstarMeshResource {
                data: PackedByteArray::from(bytes.as_slice()),
                base,
            })),
            Err(e) => {
                godot_error!("NavstarMeshResource.from_mesh: {e}");
                None
            }
        }
    }

    /// A resource made from a `NavigationMesh` (3D); `null` with an error printed when
    /// the mesh is rejected.
    #[func]
    fn from_navigation_mesh(
        navigation_mesh: Option<Gd<Resource>>,
    ) -> Option<Gd<NavstarMeshResource>> {
        Self::from_mesh(Some(NavstarMesh::from_navigation_mesh(navigation_mesh)))
    }

    /// A resource made from a `NavigationPolygon` (2D: `Vector2(x, y)` is the ground
    /// point `(x, 0, y)`); `null` with an error printed when it is rejected.
    #[func]
    fn from_navigation_polygon(
        navigation_polygon: Option<Gd<Resource>>,
    ) -> Option<Gd<NavstarMeshResource>> {
        let mut mesh = NavstarMesh::new_gd();
        mesh.bind_mut()
            .build_from_navigation_polygon(navigation_polygon);
        Self::from_mesh(Some(mesh))
    }

    /// A new `NavstarMesh` loaded from `data`; check its `get_last_error()` (an empty or
    /// damaged `data` leaves it without a mesh, with the reason).
    #[func]
    fn create_mesh(&self) -> Gd<NavstarMesh> {
        let data = self.data.clone();
        crate::with_new(|mesh| mesh.load_bytes(data, GString::new()))
    }

    /// Whether `data` holds anything.
    #[func]
    fn has_data(&self) -> bool {
        !self.data.is_empty()
    }
}
