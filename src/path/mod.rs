//! Turning a polygon corridor into the corners an agent walks.

pub(crate) mod funnel;
pub(crate) mod optimal;
