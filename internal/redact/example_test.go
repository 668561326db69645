package redact_test

import (
	"fmt"

	"github.com/hookd/hookd/internal/redact"
)

func Example() {
	r, err := redact.New([]string{`employee-id=(?P<secret>\d+)`})
	if err != nil {
		panic(err)
	}
	for _, cmd := range []string{
		`curl -H "Authorization: Bearer abc.def" https://x`,
		`mysql -u root --password=hunter2 db`,
		`git clone https://bob:s3cret@example.com/repo.git`,
		`report --employee-id=4711`,
		`echo $PASSWORD`,
	} {
		out, n := r.String(cmd)
		fmt.Println(n, out)
	}
	// Output:
	// 1 curl -H "Authorization: Bearer [REDACTED]" https://x
	// 1 mysql -u root --password=[REDACTED] db
	// 1 git clone https://bob:[REDACTED]@example.com/repo.git
	// 1 report --employee-id=[REDACTED]
	// 0 echo $PASSWORD
}
