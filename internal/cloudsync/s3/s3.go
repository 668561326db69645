// Package s3 is the small part of the S3 API that sync needs, on net/http:
// create an object only if it does not exist (If-None-Match: *), get, list
// (ListObjectsV2), delete, and check a bucket, signed with AWS Signature
// Version 4; credentials and region from the standard AWS environment
// variables and files. It works with AWS S3 and the S3-compatible stores
// (MinIO, Garage, SeaweedFS, versitygw, R2, B2), path-style for a store at
// an endpoint of the user's and virtual-hosted for AWS.
//
// It is hand-written rather than taken from an SDK so that hookd's one
// binary does not pay for an SDK's package initialisation at every start,
// the failure path's `hookd suggest` included (docs/design.md, sync).
package s3

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Errors a caller acts on. Every error from a request is an *Error that
// wraps one of these when it applies.
var (
	// ErrExists: a conditional create found the object already there.
	ErrExists = errors.New("the object exists already")
	// ErrNotFound: no such object.
	ErrNotFound = errors.New("no such object")
	// ErrNoBucket: no such bucket.
	ErrNoBucket = errors.New("no such bucket")
	// ErrAuth: the store refused the credentials (unknown key, wrong
	// secret, expired token, access denied).
	ErrAuth = errors.New("the store refused the credentials")
	// ErrUnreachable: the store could not be reached.
	ErrUnreachable = errors.New("the store could not be reached")
	// ErrTooLarge: an object is larger than the caller's limit (nothing
	// of it beyond the limit was read).
	ErrTooLarge = errors.New("the object is larger than expected")
)

// Error is a failed request.
type Error struct {
	Op, Key string
	Status  int    // HTTP status (0: no answer)
	Code    string // the store's error code (NoSuchKey, …)
	Message string
	Kind    error // one of the Err values, or nil
	Err     error // a transport error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Op)
	if e.Key != "" {
		b.WriteString(" " + e.Key)
	}
	b.WriteString(": ")
	switch {
	case e.Err != nil:
		b.WriteString(e.Err.Error())
	case e.Code != "":
		b.WriteString(e.Code)
		if e.Message != "" {
			b.WriteString(" (" + e.Message + ")")
		}
	default:
		b.WriteString("HTTP " + strconv.Itoa(e.Status))
	}
	return b.String()
}

func (e *Error) Unwrap() []error {
	var out []error
	if e.Kind != nil {
		out = append(out, e.Kind)
	}
	if e.Err != nil {
		out = append(out, e.Err)
	}
	return out
}

// Credentials sign requests.
type Credentials struct {
	AccessKey, SecretKey, SessionToken string
	// Source says where they came from, for messages.
	Source string
}

// Config names a bucket and how to reach it.
type Config struct {
	// Endpoint is the store's address (http://127.0.0.1:7070); empty
	// for AWS, whose regional endpoint is used.
	Endpoint string
	Region   string
	Bucket   string
	// PathStyle puts the bucket in the path (http://host/bucket/key)
	// rather than in the host name. Stores at an endpoint of the user's
	// usually need it; AWS does not.
	PathStyle bool
	Creds     Credentials
	// HTTP is the client to use (nil: one with sensible timeouts).
	HTTP *http.Client
	// Now is the clock (nil: time.Now), for tests of signing.
	Now func() time.Time
}

// Client talks to one bucket.
type Client struct {
	cfg  Config
	base *url.URL // scheme and host, and the bucket's path prefix
	host string
}

// New checks cfg and returns a client.
func New(cfg Config) (*Client, error) {
	if cfg.Bucket == "" {
		return nil, errors.New("no bucket given")
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1"
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{Transport: &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			TLSHandshakeTimeout:   10 * time.Second,
			ResponseHeaderTimeout: 60 * time.Second,
			MaxIdleConnsPerHost:   8,
			IdleConnTimeout:       60 * time.Second,
		}}
	}
	ep := cfg.Endpoint
	if ep == "" {
		ep = "https://s3." + cfg.Region + ".amazonaws.com"
		if cfg.Region == "us-east-1" {
			ep = "https://s3.amazonaws.com"
		}
	}
	u, err := url.Parse(ep)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("endpoint %q: want an http or https address such as http://127.0.0.1:9000", ep)
	}
	base := &url.URL{Scheme: u.Scheme, Host: u.Host, Path: strings.TrimSuffix(u.Path, "/")}
	if cfg.PathStyle || strings.Contains(cfg.Bucket, ".") && u.Scheme == "https" {
		base.Path += "/" + cfg.Bucket
	} else {
		base.Host = cfg.Bucket + "." + u.Host
	}
	return &Client{cfg: cfg, base: base, host: base.Host}, nil
}

// Put stores body as the object key. With ifAbsent it is created only if
// no object of that name exists (If-None-Match: *): an error wrapping
// ErrExists says one does, and nothing was written.
func (c *Client) Put(ctx context.Context, key string, body []byte, ifAbsent bool) error {
	h := http.Header{}
	h.Set("Content-Type", "application/octet-stream")
	if ifAbsent {
		h.Set("If-None-Match", "*")
	}
	resp, err := c.do(ctx, "put", http.MethodPut, key, nil, h, body)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

// Get returns the object key's bytes, at most limit of them: an error
// wrapping ErrTooLarge beyond, said by the response's length before its
// body is read, or else after limit+1 bytes. Memory is one buffer of the
// object's size (never more than limit+1).
func (c *Client) Get(ctx context.Context, key string, limit int64) ([]byte, error) {
	resp, err := c.do(ctx, "get", http.MethodGet, key, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.ContentLength > limit {
		return nil, &Error{Op: "get", Key: key, Err: fmt.Errorf("%d bytes, more than %d", resp.ContentLength, limit), Kind: ErrTooLarge}
	}
	var b []byte
	if resp.ContentLength >= 0 {
		b = make([]byte, resp.ContentLength)
		var n int
		n, err = io.ReadFull(resp.Body, b)
		b = b[:n]
	} else {
		b, err = io.ReadAll(io.LimitReader(resp.Body, limit+1))
	}
	if err != nil {
		return nil, &Error{Op: "get", Key: key, Err: err, Kind: ErrUnreachable}
	}
	if int64(len(b)) > limit {
		return nil, &Error{Op: "get", Key: key, Err: fmt.Errorf("larger than %d bytes", limit), Kind: ErrTooLarge}
	}
	if resp.ContentLength >= 0 && int64(len(b)) != resp.ContentLength {
		return nil, &Error{Op: "get", Key: key, Err: io.ErrUnexpectedEOF, Kind: ErrUnreachable}
	}
	return b, nil
}

// Delete removes the object key (no error when it is not there).
func (c *Client) Delete(ctx context.Context, key string) error {
	resp, err := c.do(ctx, "delete", http.MethodDelete, key, nil, nil, nil)
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

// Object is a listed object.
type Object struct {
	Key  string
	Size int64
}

// Listing is what List found: objects, and the common prefixes when a
// delimiter was given.
type Listing struct {
	Objects  []Object
	Prefixes []string
}

type listResult struct {
	IsTruncated           bool   `xml:"IsTruncated"`
	NextContinuationToken string `xml:"NextContinuationToken"`
	Contents              []struct {
		Key  string `xml:"Key"`
		Size int64  `xml:"Size"`
	} `xml:"Contents"`
	CommonPrefixes []struct {
		Prefix string `xml:"Prefix"`
	} `xml:"CommonPrefixes"`
}

// List lists the objects whose keys start with prefix and sort after
// startAfter (""), all pages of them, in key order; with a delimiter the
// keys that have it after the prefix are rolled up into Prefixes.
func (c *Client) List(ctx context.Context, prefix, startAfter, delimiter string) (Listing, error) {
	var l Listing
	token := ""
	for {
		q := url.Values{}
		q.Set("list-type", "2")
		q.Set("prefix", prefix)
		if delimiter != "" {
			q.Set("delimiter", delimiter)
		}
		if token != "" {
			q.Set("continuation-token", token)
		} else if startAfter != "" {
			q.Set("start-after", startAfter)
		}
		resp, err := c.do(ctx, "list", http.MethodGet, "", q, nil, nil)
		if err != nil {
			return l, err
		}
		var r listResult
		err = xml.NewDecoder(io.LimitReader(resp.Body, 64<<20)).Decode(&r)
		resp.Body.Close()
		if err != nil {
			return l, &Error{Op: "list", Key: prefix, Err: fmt.Errorf("reading the listing: %w", err)}
		}
		for _, o := range r.Contents {
			l.Objects = append(l.Objects, Object{o.Key, o.Size})
		}
		for _, p := range r.CommonPrefixes {
			l.Prefixes = append(l.Prefixes, p.Prefix)
		}
		if !r.IsTruncated || r.NextContinuationToken == "" {
			return l, nil
		}
		token = r.NextContinuationToken
	}
}

// CheckBucket checks that the bucket exists and the credentials may use
// it (a one-key listing).
func (c *Client) CheckBucket(ctx context.Context) error {
	q := url.Values{}
	q.Set("list-type", "2")
	q.Set("max-keys", "1")
	resp, err := c.do(ctx, "check bucket", http.MethodGet, "", q, nil, nil)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

type errorBody struct {
	Code    string `xml:"Code"`
	Message string `xml:"Message"`
}

// do sends one signed request, again after a pause when the store is
// unreachable or says it is busy (at most three tries), and returns a
// response with a 2xx status or an *Error.
func (c *Client) do(ctx context.Context, op, method, key string, q url.Values, h http.Header, body []byte) (*http.Response, error) {
	var last error
	for try := 0; try < 3; try++ {
		if try > 0 {
			select {
			case <-ctx.Done():
				return nil, &Error{Op: op, Key: key, Err: ctx.Err()}
			case <-time.After(time.Duration(250<<try) * time.Millisecond):
			}
		}
		req, err := c.request(ctx, method, key, q, h, body)
		if err != nil {
			return nil, &Error{Op: op, Key: key, Err: err}
		}
		resp, err := c.cfg.HTTP.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return nil, &Error{Op: op, Key: key, Err: ctx.Err()}
			}
			last = &Error{Op: op, Key: key, Err: err, Kind: ErrUnreachable}
			continue
		}
		if resp.StatusCode/100 == 2 {
			return resp, nil
		}
		e := &Error{Op: op, Key: key, Status: resp.StatusCode}
		var eb errorBody
		if method != http.MethodHead {
			raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
			if xml.Unmarshal(raw, &eb) == nil {
				e.Code, e.Message = eb.Code, eb.Message
			}
		}
		resp.Body.Close()
		switch {
		case resp.StatusCode == http.StatusPreconditionFailed || e.Code == "PreconditionFailed":
			e.Kind = ErrExists
		case e.Code == "NoSuchBucket":
			e.Kind = ErrNoBucket
		case e.Code == "NoSuchKey" || resp.StatusCode == http.StatusNotFound && key != "":
			e.Kind = ErrNotFound
		case resp.StatusCode == http.StatusNotFound:
			e.Kind = ErrNoBucket
		case resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusUnauthorized ||
			e.Code == "InvalidAccessKeyId" || e.Code == "SignatureDoesNotMatch" || e.Code == "ExpiredToken" ||
			e.Code == "InvalidToken" || e.Code == "AccessDenied":
			e.Kind = ErrAuth
		case resp.StatusCode == http.StatusServiceUnavailable || resp.StatusCode == http.StatusInternalServerError ||
			resp.StatusCode == http.StatusBadGateway || resp.StatusCode == http.StatusGatewayTimeout ||
			resp.StatusCode == http.StatusTooManyRequests:
			e.Kind = ErrUnreachable
			last = e
			continue
		}
		return nil, e
	}
	return nil, last
}

// request builds and signs a request (AWS Signature Version 4).
func (c *Client) request(ctx context.Context, method, key string, q url.Values, h http.Header, body []byte) (*http.Request, error) {
	path := c.base.Path + "/" + key
	if key == "" {
		path = c.base.Path + "/"
	}
	u := &url.URL{Scheme: c.base.Scheme, Host: c.base.Host, Path: path, RawPath: escapePath(path)}
	query := canonicalQuery(q)
	u.RawQuery = query
	req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.ContentLength = int64(len(body))
	if body == nil {
		req.Body = http.NoBody
		req.GetBody = nil
	}
	for k, vs := range h {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	now := c.cfg.Now().UTC()
	amzDate := now.Format("20060102T150405Z")
	day := now.Format("20060102")
	sum := sha256.Sum256(body)
	payload := hex.EncodeToString(sum[:])
	req.Header.Set("X-Amz-Date", amzDate)
	req.Header.Set("X-Amz-Content-Sha256", payload)
	if c.cfg.Creds.SessionToken != "" {
		req.Header.Set("X-Amz-Security-Token", c.cfg.Creds.SessionToken)
	}
	// Signed: the host, every x-amz-* header, and the condition.
	signed := map[string]string{"host": c.host}
	for k := range req.Header {
		lk := strings.ToLower(k)
		if strings.HasPrefix(lk, "x-amz-") || lk == "if-none-match" || lk == "content-type" {
			signed[lk] = strings.TrimSpace(req.Header.Get(k))
		}
	}
	names := make([]string, 0, len(signed))
	for k := range signed {
		names = append(names, k)
	}
	sort.Strings(names)
	var ch strings.Builder
	for _, k := range names {
		ch.WriteString(k + ":" + signed[k] + "\n")
	}
	signedHeaders := strings.Join(names, ";")
	canonical := strings.Join([]string{method, escapePath(path), query, ch.String(), signedHeaders, payload}, "\n")
	scope := day + "/" + c.cfg.Region + "/s3/aws4_request"
	csum := sha256.Sum256([]byte(canonical))
	toSign := "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n" + hex.EncodeToString(csum[:])
	k := hmacSHA256([]byte("AWS4"+c.cfg.Creds.SecretKey), day)
	k = hmacSHA256(k, c.cfg.Region)
	k = hmacSHA256(k, "s3")
	k = hmacSHA256(k, "aws4_request")
	sig := hex.EncodeToString(hmacSHA256(k, toSign))
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+c.cfg.Creds.AccessKey+"/"+scope+
		", SignedHeaders="+signedHeaders+", Signature="+sig)
	return req, nil
}

func hmacSHA256(key []byte, s string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(s))
	return m.Sum(nil)
}

// escape percent-encodes s as SigV4 wants: every byte but the unreserved
// characters (A-Z a-z 0-9 - . _ ~), and '/' too unless keepSlash.
func escape(s string, keepSlash bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' || keepSlash && c == '/' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func escapePath(p string) string { return escape(p, true) }

// canonicalQuery encodes q sorted by name, as SigV4 signs it; the same
// string is sent.
func canonicalQuery(q url.Values) string {
	if len(q) == 0 {
		return ""
	}
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		vs := append([]string{}, q[k]...)
		sort.Strings(vs)
		for _, v := range vs {
			parts = append(parts, escape(k, false)+"="+escape(v, false))
		}
	}
	return strings.Join(parts, "&")
}
