package web

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestStatsPage: package stats' figures drawn as SVG: a year's calendar
// with the days that had runs shaded, the runs and the failure rate over
// time, where the time went, what fails most; keys escaped.
func TestStatsPage(t *testing.T) {
	day := 24 * time.Hour
	var cmds []cmdSpec
	for i := 0; i < 30; i++ {
		cmds = append(cmds, cmdSpec{text: "make test", out: "ok\n", ago: time.Duration(i%10) * day, took: 2 * time.Second})
	}
	for i := 0; i < 6; i++ {
		cmds = append(cmds, cmdSpec{text: "deploy --prod", out: "denied\n", exit: 1, ago: time.Duration(i) * day, took: 40 * time.Second})
	}
	cmds = append(cmds, cmdSpec{text: "echo '<script>x</script>' \u202e", out: "", exit: 3, ago: 2 * day})
	s := serve(t, cmds...)
	code, page, _ := do(t, s, "GET", "/stats?since=30d", nil, "Cookie", s.cookie())
	if code != 200 {
		t.Fatalf("status %d:\n%s", code, page)
	}
	if strings.Contains(page, "<script>x") || strings.Contains(page, "\u202e") {
		t.Errorf("a command line is in the page as it is:\n%s", page)
	}
	if !strings.Contains(page, "37 runs of 3 command lines") || !strings.Contains(page, "7 failed") {
		t.Errorf("the totals:\n%s", regexp.MustCompile(`(?s)<p class="meta" id="totals">.*?</p>`).FindString(page))
	}
	cells := regexp.MustCompile(`<rect class="h([0-4])"`).FindAllStringSubmatch(page, -1)
	shaded := 0
	for _, c := range cells {
		if c[1] != "0" {
			shaded++
		}
	}
	if len(cells) < 365 || len(cells) > 367 || shaded != 10 {
		t.Errorf("the calendar: %d days, %d shaded; want a year, 10 days with runs", len(cells), shaded)
	}
	section := func(id string) string {
		return regexp.MustCompile(`(?s)<section id="` + id + `">.*?</section>`).FindString(page)
	}
	rate := section("rate")
	bars := strings.Count(rate, `class="runs"`)
	full := len(regexp.MustCompile(`class="runs" x="\d+" y="\d+" width="\d+" height="[1-9]`).FindAllString(rate, -1))
	if bars < 30 || bars > 32 || full != 10 || !strings.Contains(rate, "<polyline") {
		t.Errorf("the chart over time: %d bars (want a day each of the 30 days), %d with runs (want 10), a rate line %v", bars, full, strings.Contains(rate, "<polyline"))
	}
	slow := section("slowest")
	if i, j := strings.Index(slow, ">deploy --prod<"), strings.Index(slow, ">make test<"); i < 0 || j < 0 || i > j {
		t.Errorf("where the time went: deploy (4 min) should come before make test (1 min):\n%s", slow)
	}
	failing := section("failing")
	if !strings.Contains(failing, "6 of 6 failed") || strings.Contains(failing, ">make test<") || !strings.Contains(failing, `\u202e`) {
		t.Errorf("what fails most:\n%s", failing)
	}
	if code, _, _ := do(t, s, "GET", "/stats", nil); code != 403 {
		t.Errorf("the stats page without the token: status %d", code)
	}
}
