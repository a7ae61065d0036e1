//! A small deterministic pseudo-random generator for the random-point queries:
//! SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
//! OOPSLA 2014), and the conversion of its 64-bit outputs to uniform floats. Pure
//! arithmetic; used by `mesh` and `query`, uses nothing.

/// SplitMix64: a 64-bit state advanced by a fixed odd constant, each output a mix of the
/// new state. Every seed (0 included) gives a full-period stream of 2^64 outputs. Not
/// for cryptography.
///
/// The same seed gives the same stream on every platform; the C ABI's random-point
/// functions run this generator on a `uint64_t` state the caller keeps, so a C caller
/// and a Rust caller with the same seed draw the same points.
///
/// # Example
/// ```
/// use navstar::SplitMix64;
///
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// // The published first output for seed 0.
/// assert_eq!(SplitMix64::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
/// let x = a.next_f64();
/// assert!((0.0..1.0).contains(&x));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitMix64 {
    /// The state: the seed, advanced by [`SplitMix64::GAMMA`] per output.
    pub state: u64,
}

impl SplitMix64 {
    /// The increment of the state per output (the odd integer nearest 2^64 / phi).
    ///
    /// cbindgen:ignore
    pub const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

    /// A generator starting at `seed`.
    #[must_use]
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(Self::GAMMA);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `[0, 1)`, from the top 53 bits of [`SplitMix64::next_u64`].
    pub fn next_f64(&mut self) -> f64 {
        unit_f64(self.next_u64())
    }
}

/// A uniform number in `[0, 1)` from 64 random bits (their top 53 bits).
#[inline]
pub(crate) fn unit_f64(bits: u64) -> f64 {
    (bits >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_outputs() {
        // The reference implementation's first outputs for seed 1234567.
        let mut rng = SplitMix64::new(1_234_567);
        let expected = [
            6_457_827_717_110_365_317u64,
            3_203_168_211_198_807_973,
            9_817_491_932_198_370_423,
            4_593_380_528_125_082_431,
            16_408_922_859_458_223_821,
        ];
        for e in expected {
            assert_eq!(rng.next_u64(), e);
        }
    }

    #[test]
    fn unit_floats_stay_below_one() {
        assert_eq!(unit_f64(0), 0.0);
        assert!(unit_f64(u64::MAX) < 1.0);
    }
}
