package analyze

import "sync"

// lazyValue is a package-level table computed on first use, so that a
// hookd command that never analyses a failure (hookd version, hookd init)
// does not build it at start-up. Declared as a composite literal with a
// function literal, it is laid out by the linker: its initialisation costs
// nothing.
type lazyValue[T any] struct {
	once sync.Once
	v    T
	make func() T
}

// get returns the table, made on the first call.
func (l *lazyValue[T]) get() T {
	l.once.Do(func() { l.v = l.make() })
	return l.v
}
