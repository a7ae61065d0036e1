//! From a polygon corridor to the corners an agent walks: the funnel algorithm pulls a
//! chain of portals tight ([`funnel`]), and [`pull`] cuts a corridor at its off-mesh
//! links, pulls each stretch, traces the pulled path through the polygons for area costs
//! and area changes, and writes the corners with their details ([`corners`]). The A*
//! search measures candidate corridors with it. May use `mesh`, `filter`, `geometry`.

mod corners;
pub(crate) mod funnel;
mod pull;

pub(crate) use corners::path_length;
pub use corners::{CornerDetail, CornerFlags, PathArc};
pub(crate) use pull::{
    CorridorStep, HOP_KEYS, LAST_STEP, PathBuffer, PullRequest, PullScratch, StepKey, hop_key,
    key_hop, pull_corridor, walked_cost,
};
