package analyze

import "context"

// root is the one fact of whether the failing user is root, which every
// rule that cares asks through it (never Env.IsRoot itself). asRoot is
// the best guess, this user's: for the form a command takes (sudo in front
// or not). known says whether the failure is this user's (recorded here):
// a described one's user is unknown (Input.Described), and only a known
// root decides what is offered or explained on root's behalf.
func (f *Failure) root(ctx context.Context) (asRoot, known bool) {
	return f.Env.IsRoot(ctx), !f.Input.Described
}

// canSudo reports whether a fix may put sudo in front of a command: the
// user is not root (who needs no sudo, and in containers has none) and
// sudo is on the PATH. For a described failure (Input.Described) the user
// who ran it is unknown, and the fix the tool's words call for stays.
func (f *Failure) canSudo(ctx context.Context) bool {
	asRoot, known := f.root(ctx)
	return !known || !asRoot && f.Env.LookPath(ctx, "sudo")
}

// deniedRoot reports whether the failure is known to be root's: recorded
// here (not described) while this user is root.
func (f *Failure) deniedRoot(ctx context.Context) bool {
	asRoot, known := f.root(ctx)
	return known && asRoot
}

// sudo returns "sudo " unless the user is root (for a described failure,
// this user is the guess).
func (f *Failure) sudo(ctx context.Context) string {
	if asRoot, _ := f.root(ctx); asRoot {
		return ""
	}
	return "sudo "
}

// dropSudoFixes removes from the findings the fixes that run through sudo,
// doas or pkexec where the command as typed did not, when sudo cannot be
// offered (canSudo). Every rule that adds sudo is covered, whichever way it
// built the command.
func dropSudoFixes(ctx context.Context, f *Failure, findings []*Finding) {
	typed := -1
	for _, fd := range findings {
		if fd == nil || len(fd.Fixes) == 0 {
			continue
		}
		kept := fd.Fixes[:0:0]
		for _, fx := range fd.Fixes {
			if privilegedCalls(fx.Command, f.Shell) > 0 {
				if typed < 0 {
					typed = privilegedCalls(f.Input.Command, f.Shell)
				}
				if privilegedCalls(fx.Command, f.Shell) > typed && !f.canSudo(ctx) {
					continue
				}
			}
			kept = append(kept, fx)
		}
		fd.Fixes = kept
	}
}

// dropUnrunnableFixes removes from the findings the fixes whose program does
// not exist here (Runnable: python where only python3 is installed), unless
// the failed command line ran the same program (the user knows it is there,
// by a name hookd may not see).
func dropUnrunnableFixes(ctx context.Context, f *Failure, findings []*Finding) {
	if f.Input.Env == nil {
		return
	}
	for _, fd := range findings {
		if fd == nil || len(fd.Fixes) == 0 {
			continue
		}
		kept := fd.Fixes[:0:0]
		for _, fx := range fd.Fixes {
			if Runnable(ctx, f.Env, fx.Command, f.Shell) || f.callByName(firstProgram(fx.Command, f.Shell)) != nil {
				kept = append(kept, fx)
			}
		}
		fd.Fixes = kept
	}
}

// privilegedCalls counts the simple commands of a command line that run
// through sudo, doas or pkexec.
func privilegedCalls(cmd, shell string) int {
	n := 0
	for _, c := range parseCalls(cmd, shell) {
		if c.Sudo || c.Name() == "sudo" {
			n++
		}
	}
	return n
}
