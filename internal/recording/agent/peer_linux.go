package agent

import "syscall"

// peerUID is the user of the process at the other end of the Unix socket
// fd: SO_PEERCRED on Linux, LOCAL_PEERCRED on macOS and FreeBSD (peer_bsd.go).
func peerUID(fd int) (int, error) {
	cred, err := syscall.GetsockoptUcred(fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	if err != nil {
		return 0, err
	}
	return int(cred.Uid), nil
}
