//! Shared helpers of the criterion benches.
