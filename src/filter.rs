//! Per-query filters: which polygons and off-mesh links a query may use, and what
//! walking through each area costs.
//!
//! Every polygon (and every off-mesh link) has an area id, fixed when the mesh is built,
//! and a set of flags, which may change at run time ([`crate::NavMesh::set_polygon_flags`]).
//! A [`QueryFilter`] admits an item when its flags share a bit with `include_flags` and
//! none with `exclude_flags` (the rule of Detour's `dtQueryFilter`), and charges the
//! length walked in area `a` times `area_costs[a]`.

use crate::error::QueryError;

/// Number of area ids: areas are numbered `0..MAX_AREAS`.
pub const MAX_AREAS: usize = 64;

/// The area id of polygons and links built without one.
pub const DEFAULT_AREA: u8 = 0;

/// The flags of polygons and links built without any: bit 0, "walkable".
pub const DEFAULT_FLAGS: u32 = 1;

/// Which polygons and links a query may use, and the cost multiplier of each area.
///
/// `QueryFilter::default()` admits every item whose flags are non-zero and costs every
/// area 1 (plain walking distance).
///
/// Costs are multipliers of walked length. The searches stay exact with any positive
/// costs: their estimates scale the straight-line distance by the smallest cost the
/// filter has, so costs below 1 make a search explore more, never return worse corridors.
///
/// # Example
/// ```
/// use navstar::QueryFilter;
///
/// // Mud (area 1) costs five times its length; polygons flagged 0b10 are refused.
/// let filter = QueryFilter::default().with_area_cost(1, 5.0).with_exclude_flags(0b10);
/// assert_eq!((filter.cost(0), filter.cost(1)), (1.0, 5.0));
/// assert!(filter.admits(0b01) && !filter.admits(0b11));
/// ```
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct QueryFilter {
    /// Cost multiplier of each area id: finite and > 0. Default 1.
    #[cfg_attr(feature = "serde", serde(with = "area_costs_serde"))]
    pub area_costs: [f32; MAX_AREAS],
    /// An item is admitted only if its flags share a bit with this mask. Default all bits.
    pub include_flags: u32,
    /// An item is refused if its flags share a bit with this mask. Default none.
    pub exclude_flags: u32,
}

impl Default for QueryFilter {
    fn default() -> Self {
        QueryFilter {
            area_costs: [1.0; MAX_AREAS],
            include_flags: u32::MAX,
            exclude_flags: 0,
        }
    }
}

impl QueryFilter {
    /// Whether an item with `flags` may be used.
    #[inline]
    #[must_use]
    pub fn admits(&self, flags: u32) -> bool {
        flags & self.include_flags != 0 && flags & self.exclude_flags == 0
    }

    /// The cost multiplier of area `area` (ids beyond the table cost like the last one;
    /// meshes never hold such ids).
    #[inline]
    #[must_use]
    pub fn cost(&self, area: u8) -> f32 {
        self.area_costs[usize::from(area).min(MAX_AREAS - 1)]
    }

    /// The smallest cost multiplier of any area: what the searches scale straight-line
    /// distances by so that their estimates stay lower bounds.
    #[must_use]
    pub fn min_cost(&self) -> f32 {
        self.area_costs
            .iter()
            .copied()
            .fold(f32::INFINITY, f32::min)
    }

    /// Whether every area costs the same, so that costs cannot change which path is best.
    #[must_use]
    pub fn is_uniform(&self) -> bool {
        self.area_costs.iter().all(|&c| c == self.area_costs[0])
    }

    /// This filter with another cost for one area ([`QueryFilter::area_costs`]).
    ///
    /// # Panics
    /// If `area >= MAX_AREAS`.
    #[must_use]
    pub fn with_area_cost(mut self, area: u8, cost: f32) -> Self {
        self.area_costs[usize::from(area)] = cost;
        self
    }

    /// This filter with another include mask ([`QueryFilter::include_flags`]).
    #[must_use]
    pub fn with_include_flags(self, include_flags: u32) -> Self {
        QueryFilter {
            include_flags,
            ..self
        }
    }

    /// This filter with another exclude mask ([`QueryFilter::exclude_flags`]).
    #[must_use]
    pub fn with_exclude_flags(self, exclude_flags: u32) -> Self {
        QueryFilter {
            exclude_flags,
            ..self
        }
    }

    /// Rejects costs that are not finite and positive, naming the area.
    ///
    /// # Errors
    /// [`QueryError::InvalidAreaCost`].
    pub fn validate(&self) -> Result<(), QueryError> {
        match self
            .area_costs
            .iter()
            .position(|c| !(c.is_finite() && *c > 0.0))
        {
            Some(area) => Err(QueryError::InvalidAreaCost {
                area: area as u8,
                cost: self.area_costs[area],
            }),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_admits_any_non_zero_flags() {
        let f = QueryFilter::default();
        assert!(f.admits(1));
        assert!(f.admits(0x8000_0000));
        assert!(!f.admits(0));
    }

    #[test]
    fn exclusion_wins_over_inclusion() {
        let f = QueryFilter {
            include_flags: 0b011,
            exclude_flags: 0b010,
            ..QueryFilter::default()
        };
        assert!(f.admits(0b001));
        assert!(!f.admits(0b011));
        assert!(!f.admits(0b100));
    }

    #[test]
    fn costs_are_validated_by_area() {
        let f = QueryFilter::default().with_area_cost(5, 0.0);
        assert_eq!(
            f.validate(),
            Err(QueryError::InvalidAreaCost { area: 5, cost: 0.0 })
        );
        let f = QueryFilter::default().with_area_cost(63, f32::NAN);
        assert!(matches!(
            f.validate(),
            Err(QueryError::InvalidAreaCost { area: 63, .. })
        ));
        let f = QueryFilter::default().with_area_cost(2, 0.5);
        assert_eq!(f.validate(), Ok(()));
        assert_eq!(f.min_cost(), 0.5);
        assert!(!f.is_uniform());
        assert!(QueryFilter::default().is_uniform());
    }
}

/// `QueryFilter::area_costs` as a sequence of [`MAX_AREAS`] numbers (serde derives
/// arrays up to 32 long only).
#[cfg(feature = "serde")]
mod area_costs_serde {
    use super::MAX_AREAS;
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(costs: &[f32; MAX_AREAS], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(costs.iter())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[f32; MAX_AREAS], D::Error> {
        let costs = Vec::<f32>::deserialize(d)?;
        let count = costs.len();
        costs.try_into().map_err(|_| {
            D::Error::custom(format!(
                "area_costs has {count} entries; expected {MAX_AREAS}"
            ))
        })
    }
}
