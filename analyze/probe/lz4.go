package probe

import (
	"encoding/binary"
	"errors"
	"io"
)

// lz4Reader decompresses the LZ4 frame format (apt stores its package lists
// as *_Packages.lz4 on Debian images), block by block: a window of the last
// 64 KiB of output is kept for blocks that refer to earlier ones. Checksums
// are skipped, not verified: the lists are read as data, for names.
type lz4Reader struct {
	r        io.Reader
	inFrame  bool
	blockSum bool // each block is followed by a checksum
	sum      bool // the frame ends with a checksum
	buf      []byte
	out      []byte // decoded and not yet read: a tail of buf
}

var errLZ4 = errors.New("lz4: malformed frame")

const lz4Window = 64 << 10

func newLZ4Reader(r io.Reader) *lz4Reader { return &lz4Reader{r: r} }

func (z *lz4Reader) Read(p []byte) (int, error) {
	for len(z.out) == 0 {
		if err := z.next(); err != nil {
			return 0, err
		}
	}
	n := copy(p, z.out)
	z.out = z.out[n:]
	return n, nil
}

func (z *lz4Reader) u32() (uint32, error) {
	var b [4]byte
	if _, err := io.ReadFull(z.r, b[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b[:]), nil
}

func (z *lz4Reader) skip(n int64) error {
	_, err := io.CopyN(io.Discard, z.r, n)
	return unexpected(err)
}

// next decodes the next block into out.
func (z *lz4Reader) next() error {
	if !z.inFrame {
		magic, err := z.u32()
		if err != nil {
			return err // io.EOF between frames is the end
		}
		if magic&0xFFFFFFF0 == 0x184D2A50 { // a skippable frame
			n, err := z.u32()
			if err != nil {
				return unexpected(err)
			}
			return z.skip(int64(n))
		}
		if magic != 0x184D2204 {
			return errLZ4
		}
		var hd [2]byte
		if _, err := io.ReadFull(z.r, hd[:]); err != nil {
			return unexpected(err)
		}
		flg := hd[0]
		if flg>>6 != 1 {
			return errLZ4
		}
		z.blockSum, z.sum = flg&0x10 != 0, flg&0x04 != 0
		extra := int64(1) // the header checksum
		if flg&0x08 != 0 {
			extra += 8 // content size
		}
		if flg&0x01 != 0 {
			extra += 4 // dictionary id
		}
		if err := z.skip(extra); err != nil {
			return err
		}
		z.inFrame, z.buf = true, z.buf[:0]
	}
	size, err := z.u32()
	if err != nil {
		return unexpected(err)
	}
	if size == 0 { // the end mark
		z.inFrame = false
		if z.sum {
			return z.skip(4)
		}
		return nil
	}
	raw := size&0x80000000 != 0
	size &= 0x7FFFFFFF
	if size > 4<<20 {
		return errLZ4
	}
	block := make([]byte, size)
	if _, err := io.ReadFull(z.r, block); err != nil {
		return unexpected(err)
	}
	if len(z.buf) > lz4Window {
		z.buf = append(z.buf[:0], z.buf[len(z.buf)-lz4Window:]...)
	}
	start := len(z.buf)
	if raw {
		z.buf = append(z.buf, block...)
	} else if z.buf, err = lz4Block(z.buf, block); err != nil {
		return err
	}
	z.out = z.buf[start:]
	if z.blockSum {
		return z.skip(4)
	}
	return nil
}

// lz4Block appends the decoding of one compressed block to dst, whose
// content is the window matches may refer to.
func lz4Block(dst, src []byte) ([]byte, error) {
	i := 0
	length := func(n int) (int, bool) {
		if n != 15 {
			return n, true
		}
		for i < len(src) {
			b := src[i]
			i++
			n += int(b)
			if b != 255 {
				return n, true
			}
		}
		return 0, false
	}
	for i < len(src) {
		token := src[i]
		i++
		lit, ok := length(int(token >> 4))
		if !ok || lit > len(src)-i {
			return dst, errLZ4
		}
		dst = append(dst, src[i:i+lit]...)
		i += lit
		if i == len(src) {
			return dst, nil // the last sequence has literals only
		}
		if i+2 > len(src) {
			return dst, errLZ4
		}
		off := int(src[i]) | int(src[i+1])<<8
		i += 2
		ml, ok := length(int(token & 15))
		if !ok || off == 0 || off > len(dst) {
			return dst, errLZ4
		}
		ml += 4
		from := len(dst) - off
		if off >= ml {
			dst = append(dst, dst[from:from+ml]...)
			continue
		}
		for k := 0; k < ml; k++ { // byte by byte: the match overlaps its own output
			dst = append(dst, dst[from+k])
		}
	}
	return dst, nil
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
