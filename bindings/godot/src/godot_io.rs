//! Reading Godot values that need the engine: arrays of polygons, link dictionaries,
//! `NavigationMesh` and `NavigationPolygon` resources (through dynamic calls), `res://`
//! paths, and packing answers into dictionaries. Only compiled and linted here (no engine
//! runs in tests); the checks on the values read live in plain-Rust modules.

use godot::classes::{ProjectSettings, Resource};
use godot::prelude::*;
use navstar::OffMeshLink;

use crate::convert;
use crate::extras::{self, Field};

/// Each element of a (typed or untyped) `Array` as a `PackedInt32Array`.
pub fn polygon_arrays(polygons: &AnyArray) -> Result<Vec<PackedInt32Array>, String> {
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

/// Each element of `links` (an `Array` of `Dictionary`s) as an off-mesh link.
pub fn links(links: &AnyArray) -> Result<Vec<OffMeshLink>, String> {
    links
        .iter_shared()
        .enumerate()
        .map(|(i, v)| {
            let dict = v
                .try_to::<VarDictionary>()
                .map_err(|_| format!("link {i} is a {:?}, not a Dictionary", v.get_type()))?;
            let entries: Vec<(String, Field)> = dict
                .iter_shared()
                .map(|(k, v)| (k.to_string(), field(&v)))
                .collect();
            extras::link(i, entries.iter().map(|(k, v)| (k.as_str(), *v)))
        })
        .collect()
}

/// A variant as a link field, by type.
fn field(v: &Variant) -> Field {
    match v.get_type() {
        VariantType::VECTOR3 => Field::Vector(v.to::<Vector3>().to_array()),
        VariantType::BOOL => Field::Bool(v.to::<bool>()),
        VariantType::INT => Field::Int(v.to::<i64>()),
        VariantType::FLOAT => Field::Float(v.to::<f64>()),
        VariantType::NIL => Field::Other("null"),
        VariantType::STRING | VariantType::STRING_NAME => Field::Other("a String"),
        VariantType::VECTOR2 => {
            let p = v.to::<Vector2>();
            Field::Vector(convert::lift([p.x, p.y]))
        }
        _ => Field::Other("a value of another type"),
    }
}

/// `res://` and `user://` paths as file-system paths (others unchanged).
pub fn globalize(path: &GString) -> String {
    let text = path.to_string();
    if text.starts_with("res://") || text.starts_with("user://") {
        ProjectSettings::singleton()
            .globalize_path(path)
            .to_string()
    } else {
        text
    }
}

/// Calls `method` on `resource`, naming the class and method in errors.
fn call(
    resource: &mut Gd<Resource>,
    class: &str,
    method: &str,
    args: &[Variant],
) -> Result<Variant, String> {
    resource
        .try_call(method, args)
        .map_err(|e| format!("{class}.{method}(): {e}"))
}

/// A resource's vertices (of type `V`) and polygons, read through `get_vertices()`,
/// `get_polygon_count()` and `get_polygon(i)`, after checking it is a `class`.
fn read_polygons<V: FromGodot>(
    resource: Option<Gd<Resource>>,
    class: &str,
) -> Result<(V, Vec<PackedInt32Array>), String> {
    let mut resource = resource.ok_or_else(|| format!("the {class} is null"))?;
    if !resource.is_class(class) {
        return Err(format!(
            "expected a {class}, got a {}",
            resource.get_class()
        ));
    }
    let vertices = call(&mut resource, class, "get_vertices", &[])?
        .try_to::<V>()
        .map_err(|e| format!("{class}.get_vertices(): {e}"))?;
    let count = call(&mut resource, class, "get_polygon_count", &[])?
        .try_to::<i64>()
        .map_err(|e| format!("{class}.get_polygon_count(): {e}"))?;
    let polygons = (0..count)
        .map(|i| {
            call(&mut resource, class, "get_polygon", &[i.to_variant()])?
                .try_to::<PackedInt32Array>()
                .map_err(|e| format!("{class}.get_polygon({i}): {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((vertices, polygons))
}

/// `NavigationMesh` is an "experimental" class that gdext generates only with its
/// `experimental-godot-api` feature, so it is read through dynamic calls.
pub fn read_navigation_mesh(
    resource: Option<Gd<Resource>>,
) -> Result<(PackedVector3Array, Vec<PackedInt32Array>), String> {
    read_polygons(resource, "NavigationMesh")
}

/// A `NavigationPolygon`'s (2D) vertices and polygons, read like a `NavigationMesh`.
pub fn read_navigation_polygon(
    resource: Option<Gd<Resource>>,
) -> Result<(PackedVector2Array, Vec<PackedInt32Array>), String> {
    read_polygons(resource, "NavigationPolygon")
}

/// Sets `key` of `dict` to `value`.
pub fn put(dict: &mut VarDictionary, key: &str, value: impl ToGodot) {
    dict.set(&key.to_variant(), &value.to_variant());
}

/// A `Vector3` from navstar's.
pub fn vector(p: navstar::glam::Vec3) -> Vector3 {
    Vector3::from_array(p.to_array())
}

/// A `Vector2` (x, z) from a ground point.
pub fn flat(p: navstar::glam::Vec3) -> Vector2 {
    let [x, y] = convert::ground(p.to_array());
    Vector2::new(x, y)
}
