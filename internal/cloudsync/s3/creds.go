package s3

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Env is the part of the process environment credentials come from
// (package main reads the environment; tests give their own).
type Env struct {
	Getenv func(string) string
	Home   string
}

// ErrNoCredentials: neither the environment nor the AWS files hold a key.
var ErrNoCredentials = errors.New("no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE naming a profile of ~/.aws/credentials")

// Resolve finds the credentials and the region as the AWS tools do, in
// this order: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (and
// AWS_SESSION_TOKEN); then the profile AWS_PROFILE (else "default") of the
// shared credentials file (AWS_SHARED_CREDENTIALS_FILE, else
// ~/.aws/credentials) and of the config file (AWS_CONFIG_FILE, else
// ~/.aws/config). The region is AWS_REGION, AWS_DEFAULT_REGION, or the
// profile's region ("" when none says).
func Resolve(env Env) (Credentials, string, error) {
	get := env.Getenv
	region := get("AWS_REGION")
	if region == "" {
		region = get("AWS_DEFAULT_REGION")
	}
	profile := get("AWS_PROFILE")
	if profile == "" {
		profile = "default"
	}
	credFile := get("AWS_SHARED_CREDENTIALS_FILE")
	if credFile == "" && env.Home != "" {
		credFile = filepath.Join(env.Home, ".aws", "credentials")
	}
	confFile := get("AWS_CONFIG_FILE")
	if confFile == "" && env.Home != "" {
		confFile = filepath.Join(env.Home, ".aws", "config")
	}
	conf, _ := readINI(confFile, profile, true)
	if region == "" {
		region = conf["region"]
	}
	if ak, sk := get("AWS_ACCESS_KEY_ID"), get("AWS_SECRET_ACCESS_KEY"); ak != "" || sk != "" {
		if ak == "" || sk == "" {
			return Credentials{}, region, errors.New("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together")
		}
		return Credentials{AccessKey: ak, SecretKey: sk, SessionToken: get("AWS_SESSION_TOKEN"), Source: "environment"}, region, nil
	}
	for _, f := range []struct {
		path   string
		config bool
	}{{credFile, false}, {confFile, true}} {
		sec, err := readINI(f.path, profile, f.config)
		if err != nil {
			return Credentials{}, region, err
		}
		if sec["aws_access_key_id"] != "" && sec["aws_secret_access_key"] != "" {
			return Credentials{AccessKey: sec["aws_access_key_id"], SecretKey: sec["aws_secret_access_key"],
				SessionToken: sec["aws_session_token"], Source: fmt.Sprintf("profile %s of %s", profile, f.path)}, region, nil
		}
	}
	if get("AWS_PROFILE") != "" {
		return Credentials{}, region, fmt.Errorf("profile %q has no aws_access_key_id and aws_secret_access_key in %s or %s (hookd reads static keys only)", profile, credFile, confFile)
	}
	return Credentials{}, region, ErrNoCredentials
}

// readINI returns the keys of one profile's section of an AWS file: in
// the credentials file the section is [NAME], in the config file
// [profile NAME] ([default] for the default). A missing file is empty.
func readINI(path, profile string, config bool) (map[string]string, error) {
	out := map[string]string{}
	if path == "" {
		return out, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	want := profile
	if config && profile != "default" {
		want = "profile " + profile
	}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' && strings.HasSuffix(line, "]") {
			name := strings.Join(strings.Fields(line[1:len(line)-1]), " ")
			in = name == want
			continue
		}
		if !in {
			continue
		}
		if k, v, ok := strings.Cut(line, "="); ok {
			out[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
		}
	}
	return out, sc.Err()
}
