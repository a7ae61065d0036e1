//! The `serde` feature: every serializable option and input type survives a JSON round
//! trip with values other than its defaults, and bad area cost tables are refused.
//!
//! `cargo test --features serde --test serde`.

#![cfg(feature = "serde")]

use navstar::glam::Vec3;
use navstar::{
    MeshInput, MeshOptions, OffMeshLink, PathMode, PathOptions, QueryFilter, SearchStrategy,
    UpAxis, WorldOptions,
};

fn round_trip<T>(value: &T) -> T
where
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    let json = serde_json::to_string(value).expect("serializes");
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{json}: {e}"))
}

#[test]
fn options_round_trip() {
    let filter = QueryFilter::default()
        .with_area_cost(3, 2.5)
        .with_include_flags(0b110)
        .with_exclude_flags(0b1000);
    let path = PathOptions::default()
        .with_mode(PathMode::Optimal)
        .with_strategy(SearchStrategy::Dijkstra)
        .with_filter(filter.clone());
    assert_eq!(round_trip(&path), path);
    assert_eq!(round_trip(&path).max_snap_distance, f32::INFINITY);
    let near = path.clone().with_max_snap_distance(2.5);
    assert_eq!(round_trip(&near), near);
    assert_eq!(round_trip(&filter), filter);
    assert_eq!(round_trip(&filter).area_costs[3], 2.5);
    let mesh = MeshOptions::default()
        .with_up_axis(UpAxis::Z)
        .with_weld_vertices(false);
    assert_eq!(round_trip(&mesh), mesh);
    let world = WorldOptions::default().with_max_tiles(64).with_climb(0.75);
    assert_eq!(round_trip(&world), world);
    assert_eq!(round_trip(&UpAxis::Z), UpAxis::Z);
}

#[test]
fn links_round_trip() {
    let link = OffMeshLink::new(Vec3::new(1.0, 2.0, 3.0), Vec3::new(4.0, 5.0, 6.5))
        .with_bidirectional(false)
        .with_cost(9.0)
        .with_area(7)
        .with_flags(0x10)
        .with_radius(0.25);
    assert_eq!(round_trip(&link), link);
}

#[test]
fn mesh_input_serializes_its_arrays() {
    let vertices = [Vec3::ZERO, Vec3::X, Vec3::Z];
    let links = [OffMeshLink::new(Vec3::ZERO, Vec3::X)];
    let input = MeshInput::new(&vertices, &[0, 1, 2])
        .with_areas(&[4])
        .with_links(&links);
    let json: serde_json::Value = serde_json::to_value(input).unwrap();
    assert_eq!(json["indices"], serde_json::json!([0, 1, 2]));
    assert_eq!(json["areas"], serde_json::json!([4]));
    assert_eq!(json["vertices"][1], serde_json::json!([1.0, 0.0, 0.0]));
    assert_eq!(json["links"].as_array().map(Vec::len), Some(1));
}

#[test]
fn area_costs_of_the_wrong_length_are_refused() {
    let mut json = serde_json::to_value(QueryFilter::default()).unwrap();
    json["area_costs"] = serde_json::json!([1.0, 2.0]);
    let error = serde_json::from_value::<QueryFilter>(json).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("area_costs has 2 entries; expected 64"),
        "{error}"
    );
}
