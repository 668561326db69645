package ask

import (
	"context"
	"errors"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/ai/contextcmd"
	"github.com/hookd/hookd/internal/ai/llm"
	"github.com/hookd/hookd/internal/ai/skill"
)

// Question is one question and where what comes with it is found.
type Question struct {
	Sources Sources
	// Session is the shell session it is asked from ("" outside one);
	// PinsDir holds the commands pinned for its next question.
	Session, PinsDir string
	Text, Stdin      string
	Budget           int
	Env              Env
	// Continue follows the session's last conversation (-c).
	Continue bool
	// Template, Variables, Skills and Contexts are as in Input.
	Template  string
	Variables map[string]string
	Skills    []skill.Skill
	Contexts  []contextcmd.Result
}

// ErrNoSessionToContinue is the error of Continue outside a shell session.
var ErrNoSessionToContinue = errors.New("-c continues this shell session's last conversation: HOOKD_SESSION is not set (this shell does not load hookd)")

// Plan is a question ready to send.
type Plan struct {
	Prompt  Prompt
	Turns   []history.Ask // the earlier turns sent with it (Continue)
	Request llm.Request
}

// Prepare takes the session's pins, gathers the context, loads the
// conversation it continues, and builds the request. The shell named in
// the system prompt is the session's (which $SHELL need not be) when
// known.
func (q Question) Prepare(ctx context.Context) (Plan, error) {
	var pl Plan
	store := q.Sources.Reader.Store
	if q.Continue && q.Session == "" {
		return pl, ErrNoSessionToContinue
	}
	if sess, err := store.Session(ctx, q.Session); err == nil && sess.Shell != "" {
		q.Env.Shell = sess.Shell
	}
	pinned, err := TakePins(q.PinsDir, q.Session)
	if err != nil {
		return pl, err
	}
	if pl.Prompt, err = Prepare(ctx, q.Sources, Input{Question: q.Text, Pinned: pinned, Stdin: q.Stdin, Budget: q.Budget, Env: q.Env,
		Template: q.Template, Variables: q.Variables, Skills: q.Skills, Contexts: q.Contexts}); err != nil {
		return pl, err
	}
	if q.Continue {
		if last, err := store.Asks(ctx, q.Session, 1); err == nil && len(last) == 1 {
			pl.Turns, _ = store.Thread(ctx, last[0].ID, MaxTurns)
		}
	}
	pl.Request = Request(pl.Turns, pl.Prompt)
	return pl, nil
}

// Save stores a question and its answer, whatever happened to it
// (cancelled included: the question is not lost), within its own few
// seconds (the caller's context may have ended with Ctrl-C).
func (pl Plan) Save(store *history.Store, session string, a history.Ask) (int64, error) {
	a.Session, a.Question, a.Context = session, pl.Prompt.Question, pl.Prompt.Context
	if len(pl.Turns) > 0 {
		a.Parent = pl.Turns[len(pl.Turns)-1].ID
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return store.AddAsk(ctx, a)
}
