//! Per-polygon areas and flags and off-mesh links, from the shapes GDScript hands over,
//! to navstar's [`Extras`].
//!
//! A link arrives as a `Dictionary` (the properties of a `NavigationLink3D`, in navstar's
//! terms); the class turns each entry into a [`Field`] and the checks happen here, where
//! `cargo test` reaches them. Errors name the link or polygon and the key.

use navstar::glam::Vec3;
use navstar::{MAX_AREAS, OffMeshLink};

use crate::navigator::Extras;

/// One value of a link `Dictionary`, by Godot type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Field {
    /// A `Vector3` (or a `Vector2` read as `(x, 0, y)`).
    Vector([f32; 3]),
    /// A `bool`.
    Bool(bool),
    /// An `int`.
    Int(i64),
    /// A `float`.
    Float(f64),
    /// Any other type, by its Godot type name.
    Other(&'static str),
}

/// The keys a link `Dictionary` may hold.
pub const LINK_KEYS: [&str; 7] = [
    "start_position",
    "end_position",
    "bidirectional",
    "cost",
    "area",
    "flags",
    "radius",
];

/// Builds link number `link` from its dictionary's entries. `start_position` and
/// `end_position` are required; `bidirectional` (true), `cost` (the distance), `area`
/// (0), `flags` (1) and `radius` (1) are optional. navstar checks the numbers' ranges
/// when the mesh is built.
///
/// # Errors
/// An unknown key, a missing position, a value of the wrong type or an area or flags
/// out of range, naming the link and key.
pub fn link<'a>(
    link: usize,
    fields: impl IntoIterator<Item = (&'a str, Field)>,
) -> Result<OffMeshLink, String> {
    let mut start = None;
    let mut end = None;
    let mut optional: Vec<(&str, Field)> = Vec::new();
    for (key, value) in fields {
        let wrong = |want: &str| {
            Err(format!(
                "link {link}: {key} must be {want}, not {}",
                type_name(value)
            ))
        };
        match key {
            "start_position" | "end_position" => {
                let Field::Vector(v) = value else {
                    return wrong("a Vector3 (or a Vector2 on a 2D mesh)");
                };
                let slot = if key == "start_position" {
                    &mut start
                } else {
                    &mut end
                };
                *slot = Some(Vec3::from_array(v));
            }
            "bidirectional" if !matches!(value, Field::Bool(_)) => return wrong("a bool"),
            "area" | "flags" if !matches!(value, Field::Int(_)) => return wrong("an int"),
            "cost" | "radius" if !matches!(value, Field::Float(_) | Field::Int(_)) => {
                return wrong("a float");
            }
            "bidirectional" | "area" | "flags" | "cost" | "radius" => optional.push((key, value)),
            _ => {
                return Err(format!(
                    "link {link}: unknown key {key:?} (known: {})",
                    LINK_KEYS.join(", ")
                ));
            }
        }
    }
    let missing = |key| format!("link {link}: {key} is missing");
    let mut made = OffMeshLink::new(
        start.ok_or_else(|| missing("start_position"))?,
        end.ok_or_else(|| missing("end_position"))?,
    );
    for (key, value) in optional {
        made = match (key, value) {
            ("bidirectional", Field::Bool(b)) => made.with_bidirectional(b),
            ("area", Field::Int(a)) => {
                made.with_area(area(a).map_err(|e| format!("link {link}: {e}"))?)
            }
            ("flags", Field::Int(f)) => {
                made.with_flags(crate::options::flags(&format!("link {link}: flags"), f)?)
            }
            ("cost", v) => made.with_cost(number(v)),
            ("radius", v) => made.with_radius(number(v)),
            _ => unreachable!("types checked above"),
        };
    }
    Ok(made)
}

fn number(value: Field) -> f32 {
    match value {
        Field::Float(f) => f as f32,
        Field::Int(i) => i as f32,
        _ => f32::NAN,
    }
}

fn type_name(value: Field) -> &'static str {
    match value {
        Field::Vector(_) => "a vector",
        Field::Bool(_) => "a bool",
        Field::Int(_) => "an int",
        Field::Float(_) => "a float",
        Field::Other(name) => name,
    }
}

fn area(value: i64) -> Result<u8, String> {
    u8::try_from(value)
        .ok()
        .filter(|&a| usize::from(a) < MAX_AREAS)
        .ok_or_else(|| format!("area {value} is out of range (0 to {})", MAX_AREAS - 1))
}

/// Areas (one per polygon, empty for area 0 everywhere), flags (one per polygon, empty for
/// the default; a 32-bit array's negative values are taken as their bit pattern, so `-1`
/// is all 32 bits) and links, as navstar's [`Extras`]. navstar checks the counts.
///
/// # Errors
/// An area outside `0..MAX_AREAS`, naming the polygon.
pub fn extras(areas: &[i32], flags: &[i32], links: Vec<OffMeshLink>) -> Result<Extras, String> {
    let areas = (!areas.is_empty())
        .then(|| {
            areas
                .iter()
                .enumerate()
                .map(|(p, &a)| area(i64::from(a)).map_err(|e| format!("polygon {p}: {e}")))
                .collect::<Result<Vec<u8>, String>>()
        })
        .transpose()?;
    let flags = (!flags.is_empty()).then(|| flags.iter().map(|&f| f as u32).collect());
    Ok(Extras {
        areas,
        flags,
        links,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: [f32; 3] = [0.5, 0.0, 0.5];
    const B: [f32; 3] = [2.5, 0.0, 0.5];

    #[test]
    fn minimal_link_takes_navstars_defaults() {
        let made = link(
            0,
            [
                ("start_position", Field::Vector(A)),
                ("end_position", Field::Vector(B)),
            ],
        )
        .unwrap();
        assert_eq!(
            made,
            OffMeshLink::new(Vec3::from_array(A), Vec3::from_array(B))
        );
    }

    #[test]
    fn every_key_reaches_the_link() {
        let made = link(
            3,
            [
                ("end_position", Field::Vector(B)),
                ("start_position", Field::Vector(A)),
                ("bidirectional", Field::Bool(false)),
                ("cost", Field::Float(0.25)),
                ("area", Field::Int(7)),
                ("flags", Field::Int(6)),
                ("radius", Field::Int(2)),
            ],
        )
        .unwrap();
        assert_eq!(
            (made.start, made.end),
            (Vec3::from_array(A), Vec3::from_array(B))
        );
        assert!(!made.bidirectional);
        assert_eq!(
            (made.cost, made.area, made.flags, made.radius),
            (0.25, 7, 6, 2.0)
        );
    }

    #[test]
    fn bad_links_are_named() {
        let s = Field::Vector(A);
        let e = Field::Vector(B);
        let err = |fields: Vec<(&str, Field)>| link(2, fields).unwrap_err();
        assert_eq!(
            err(vec![("start_position", s)]),
            "link 2: end_position is missing"
        );
        assert_eq!(
            err(vec![("start_position", Field::Int(1)), ("end_position", e)]),
            "link 2: start_position must be a Vector3 (or a Vector2 on a 2D mesh), not an int"
        );
        assert_eq!(
            err(vec![
                ("start_position", s),
                ("end_position", e),
                ("area", Field::Int(64))
            ]),
            "link 2: area 64 is out of range (0 to 63)"
        );
        assert_eq!(
            err(vec![
                ("start_position", s),
                ("end_position", e),
                ("flags", Field::Int(-2))
            ]),
            "link 2: flags -2 is out of range: flags are 32 bits (0 to 4294967295)"
        );
        assert_eq!(
            err(vec![
                ("start_position", s),
                ("end_position", e),
                ("cost", Field::Other("String"))
            ]),
            "link 2: cost must be a float, not String"
        );
        assert!(
            err(vec![("start", s)])
                .starts_with("link 2: unknown key \"start\" (known: start_position,")
        );
    }

    #[test]
    fn areas_and_flags_convert() {
        let x = extras(&[0, 63, 2], &[1, -1, 4], Vec::new()).unwrap();
        assert_eq!(x.areas, Some(vec![0, 63, 2]));
        assert_eq!(x.flags, Some(vec![1, u32::MAX, 4]));
        assert_eq!(extras(&[], &[], Vec::new()).unwrap(), Extras::default());
        assert_eq!(
            extras(&[0, 64], &[], Vec::new()).unwrap_err(),
            "polygon 1: area 64 is out of range (0 to 63)"
        );
        assert_eq!(
            extras(&[-1], &[], Vec::new()).unwrap_err(),
            "polygon 0: area -1 is out of range (0 to 63)"
        );
    }
}
