package analyze

// SetStrict makes rules' panics crash the test instead of being contained.
func SetStrict(b bool) { strict = b }
