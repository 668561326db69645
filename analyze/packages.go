package analyze

import "strings"

// pairs turns "a:b c:d" into a map; a name without ":" maps to itself.
func pairs(s string) map[string]string {
	m := map[string]string{}
	for _, p := range strings.Fields(s) {
		k, v, ok := strings.Cut(p, ":")
		if !ok {
			v = k
		}
		m[k] = v
	}
	return m
}

// debianPackages maps commonly missing commands to the Debian package that
// provides them.
var debianPackages = lazyValue[map[string]string]{make: func() map[string]string {
	return pairs(`
	7z:p7zip-full 7za:p7zip-full ab:apache2-utils ack ag:silversearcher-ag ansible ant arp:net-tools
	aws:awscli bc bat bison bzip2 cargo clang clang-format cmake column:bsdextrautils convert:imagemagick
	curl dig:dnsutils docker:docker.io docker-compose dos2unix doxygen emacs entr ethtool expect
	fd:fd-find ffmpeg ffprobe:ffmpeg file flex fzf g++ gcc gdb gh gimp git git-lfs gnuplot go:golang-go
	gofmt:golang-go gpg:gnupg gradle graphviz:graphviz dot:graphviz host:bind9-host htop http:httpie
	iftop ifconfig:net-tools inotifywait:inotify-tools iostat:sysstat ip:iproute2 java:default-jre
	javac:default-jdk jq killall:psmisc less lsb_release:lsb-release lsof lsusb:usbutils lspci:pciutils
	ltrace lua:lua5.4 lz4 make man:man-db mc meson mosh mvn:maven mysql:default-mysql-client nano
	nc:netcat-openbsd ncdu neofetch netstat:net-tools nginx ninja:ninja-build nmap node:nodejs
	nodejs npm npx:npm nslookup:dnsutils nvim:neovim openssl pandoc parallel patch perl php pigz
	ping:iputils-ping pip:python3-pip pip3:python3-pip pipx pkg-config psql:postgresql-client
	pstree:psmisc pv pwgen python3 qemu-img:qemu-utils redis-cli:redis-tools rg:ripgrep route:net-tools
	rsync ruby rustc scp:openssh-client screen shellcheck sponge:moreutils sqlite3 ssh:openssh-client
	sshpass strace sudo svn:subversion tcpdump telnet tig tmux traceroute tree unrar unzip
	valgrind vim virtualenv:python3-virtualenv wget whois xclip xmllint:libxml2-utils xsel xxd
	xz:xz-utils yamllint yarnpkg:yarnpkg zip zsh zstd hg:mercurial ctags:universal-ctags gem:ruby
	bundle:ruby-bundler irb:ruby composer dotnet:dotnet-sdk-8.0 kubectl:kubernetes-client
	helm podman buildah skopeo sqlite:sqlite3 mariadb:mariadb-client iperf3 mtr:mtr-tiny
	tshark wireshark socat nmcli:network-manager dialog whiptail rename fish ncat:ncat
	ffplay:ffmpeg exiftool:libimage-exiftool-perl pdftotext:poppler-utils qpdf gs:ghostscript
	lynx w3m aria2c:aria2 yt-dlp duf fdupes jc yq httpie:httpie hyperfine ranger cowsay
	figlet lolcat mkisofs:genisoimage genisoimage xorriso cpio rpm alien autoconf automake
	libtool m4 gettext nasm yasm upx:upx-ucl swig protoc:protobuf-compiler
	pytest:python3-pytest black flake8 mypy pylint isort poetry:python3-poetry pipenv tox
	django-admin:python3-django flask:python3-flask gunicorn uvicorn pre-commit twine mkdocs
	sphinx-build:python3-sphinx ruff cc:gcc c++:g++ locate:plocate snap:snapd
	add-apt-repository:software-properties-common mysql_config:default-libmysqlclient-dev
	crontab:cron at batch:at ps:procps top:procps free:procps watch:procps pgrep:procps
	pkill:procps uptime:procps vmstat:procps sar:sysstat mpstat:sysstat sftp:openssh-client
	ssh-keygen:openssh-client ssh-copy-id:openssh-client gawk fdisk parted smartctl:smartmontools
	iotop nethogs nload arping:iputils-arping tracepath:iputils-tracepath iw iwconfig:wireless-tools
	ufw iptables nft:nftables certbot lsmod:kmod modprobe:kmod dmidecode lshw sensors:lm-sensors
	nvme:nvme-cli mdadm cryptsetup sshfs rclone restic borg:borgbackup bsdtar:libarchive-tools
	objdump:binutils readelf:binutils strings:binutils ar:binutils ccache perf:linux-perf btop
	glances unxz:xz-utils xzcat:xz-utils lzma:xz-utils lftp
`)
}}

// nodeTools are command-line programs installed with npm, mapped to their
// package.
var nodeTools = lazyValue[map[string]string]{make: func() map[string]string {
	return pairs(`
	yarn pnpm tsc:typescript ts-node nodemon eslint prettier ng:@angular/cli vue:@vue/cli
	vite next nuxt:nuxi jest mocha pm2 serve http-server webpack rollup esbuild tsx
	firebase:firebase-tools vercel netlify:netlify-cli wrangler expo:expo-cli
`)
}}

// pythonTools are command-line programs installed with pip, mapped to
// their PyPI distribution.
var pythonTools = lazyValue[map[string]string]{make: func() map[string]string {
	return pairs(`
	pytest black flake8 mypy pylint isort ruff poetry pipenv tox jupyter ipython
	django-admin:django flask uvicorn gunicorn celery pre-commit twine cookiecutter mkdocs
	sphinx-build:sphinx http:httpie yt-dlp streamlit jupyter-lab:jupyterlab autopep8 yapf
	bandit coverage nox hatch pdm virtualenv pipx awscli:awscli aws:awscli ansible
	dbt:dbt-core alembic locust scrapy
`)
}}

// headerPackages maps C headers to the Debian development package that
// provides them.
var headerPackages = lazyValue[map[string]string]{make: func() map[string]string {
	return pairs(`
	curl/curl.h:libcurl4-openssl-dev openssl/ssl.h:libssl-dev openssl/evp.h:libssl-dev
	openssl/sha.h:libssl-dev openssl/crypto.h:libssl-dev openssl/err.h:libssl-dev
	openssl/md5.h:libssl-dev openssl/rand.h:libssl-dev zlib.h:zlib1g-dev sqlite3.h:libsqlite3-dev
	ncurses.h:libncurses-dev curses.h:libncurses-dev readline/readline.h:libreadline-dev
	ffi.h:libffi-dev bzlib.h:libbz2-dev lzma.h:liblzma-dev png.h:libpng-dev jpeglib.h:libjpeg-dev
	yaml.h:libyaml-dev expat.h:libexpat1-dev uuid/uuid.h:uuid-dev pcap.h:libpcap-dev
	pcap/pcap.h:libpcap-dev gmp.h:libgmp-dev mysql.h:default-libmysqlclient-dev
	mysql/mysql.h:default-libmysqlclient-dev libpq-fe.h:libpq-dev postgresql/libpq-fe.h:libpq-dev
	Python.h:python3-dev jansson.h:libjansson-dev json-c/json.h:libjson-c-dev
	event2/event.h:libevent-dev X11/Xlib.h:libx11-dev GL/gl.h:libgl-dev GL/glut.h:freeglut3-dev
	GL/glew.h:libglew-dev GLFW/glfw3.h:libglfw3-dev SDL2/SDL.h:libsdl2-dev SDL.h:libsdl2-dev
	gtk/gtk.h:libgtk-3-dev glib.h:libglib2.0-dev libxml/parser.h:libxml2-dev libxml/tree.h:libxml2-dev
	gtest/gtest.h:libgtest-dev gmock/gmock.h:libgmock-dev systemd/sd-daemon.h:libsystemd-dev
	systemd/sd-journal.h:libsystemd-dev dbus/dbus.h:libdbus-1-dev alsa/asoundlib.h:libasound2-dev
	libusb-1.0/libusb.h:libusb-1.0-0-dev libusb.h:libusb-1.0-0-dev magic.h:libmagic-dev
	security/pam_appl.h:libpam0g-dev sys/capability.h:libcap-dev gpgme.h:libgpgme-dev
	archive.h:libarchive-dev zstd.h:libzstd-dev lz4.h:liblz4-dev ev.h:libev-dev uv.h:libuv1-dev
	hiredis/hiredis.h:libhiredis-dev cjson/cJSON.h:libcjson-dev ldap.h:libldap-dev
	krb5.h:libkrb5-dev sodium.h:libsodium-dev gnutls/gnutls.h:libgnutls28-dev pcre.h:libpcre3-dev
	pcre2.h:libpcre2-dev tiffio.h:libtiff-dev ft2build.h:libfreetype-dev
	fontconfig/fontconfig.h:libfontconfig-dev cairo.h:libcairo2-dev cairo/cairo.h:libcairo2-dev
	Eigen/Dense:libeigen3-dev Eigen/Core:libeigen3-dev fuse.h:libfuse-dev fuse3/fuse.h:libfuse3-dev
	libudev.h:libudev-dev mpi.h:libopenmpi-dev gdbm.h:libgdbm-dev db.h:libdb-dev
	boost/asio.hpp:libboost-all-dev boost/filesystem.hpp:libboost-filesystem-dev
	boost/program_options.hpp:libboost-program-options-dev jni.h:default-jdk
	fmt/core.h:libfmt-dev fmt/format.h:libfmt-dev spdlog/spdlog.h:libspdlog-dev
	nlohmann/json.hpp:nlohmann-json3-dev yaml-cpp/yaml.h:libyaml-cpp-dev
	google/protobuf/message.h:libprotobuf-dev grpc/grpc.h:libgrpc-dev microhttpd.h:libmicrohttpd-dev
	mosquitto.h:libmosquitto-dev zmq.h:libzmq3-dev argon2.h:libargon2-dev
	portaudio.h:portaudio19-dev sndfile.h:libsndfile1-dev opus/opus.h:libopus-dev
	vorbis/codec.h:libvorbis-dev libavcodec/avcodec.h:libavcodec-dev libavformat/avformat.h:libavformat-dev
	opencv2/opencv.hpp:libopencv-dev tesseract/baseapi.h:libtesseract-dev lua.h:liblua5.4-dev
	libssh/libssh.h:libssh-dev libssh2.h:libssh2-1-dev git2.h:libgit2-dev
	numa.h:libnuma-dev bpf/libbpf.h:libbpf-dev elf.h:libc6-dev libelf.h:libelf-dev gelf.h:libelf-dev
	xcb/xcb.h:libxcb1-dev X11/extensions/Xrandr.h:libxrandr-dev wayland-client.h:libwayland-dev
	iconv.h:libc6-dev stdio.h:libc6-dev stdlib.h:libc6-dev string.h:libc6-dev
`)
}}

// libPackages maps linker library names (-lNAME) to their Debian package.
var libPackages = lazyValue[map[string]string]{make: func() map[string]string {
	return pairs(`
	curl:libcurl4-openssl-dev ssl:libssl-dev crypto:libssl-dev z:zlib1g-dev sqlite3:libsqlite3-dev
	ncurses:libncurses-dev ncursesw:libncurses-dev tinfo:libncurses-dev readline:libreadline-dev
	ffi:libffi-dev bz2:libbz2-dev lzma:liblzma-dev png:libpng-dev jpeg:libjpeg-dev yaml:libyaml-dev
	expat:libexpat1-dev uuid:uuid-dev pcap:libpcap-dev gmp:libgmp-dev mysqlclient:default-libmysqlclient-dev
	pq:libpq-dev jansson:libjansson-dev json-c:libjson-c-dev event:libevent-dev X11:libx11-dev
	GL:libgl-dev glut:freeglut3-dev GLEW:libglew-dev glfw:libglfw3-dev SDL2:libsdl2-dev
	xml2:libxml2-dev gtest:libgtest-dev systemd:libsystemd-dev dbus-1:libdbus-1-dev asound:libasound2-dev
	usb-1.0:libusb-1.0-0-dev magic:libmagic-dev pam:libpam0g-dev cap:libcap-dev archive:libarchive-dev
	zstd:libzstd-dev lz4:liblz4-dev ev:libev-dev uv:libuv1-dev hiredis:libhiredis-dev sodium:libsodium-dev
	gnutls:libgnutls28-dev pcre:libpcre3-dev pcre2-8:libpcre2-dev tiff:libtiff-dev freetype:libfreetype-dev
	cairo:libcairo2-dev fuse:libfuse-dev fuse3:libfuse3-dev udev:libudev-dev boost_system:libboost-system-dev
	fmt:libfmt-dev zmq:libzmq3-dev ssh:libssh-dev ssh2:libssh2-1-dev git2:libgit2-dev numa:libnuma-dev
	bpf:libbpf-dev elf:libelf-dev xcb:libxcb1-dev ldap:libldap-dev krb5:libkrb5-dev
`)
}}

// symbolLibraries maps the prefix of an undefined symbol to the linker flag
// that provides it.
var symbolLibraries = []struct{ prefix, flag string }{
	{"pthread_", "-pthread"}, {"curl_", "-lcurl"}, {"SSL_", "-lssl -lcrypto"}, {"EVP_", "-lcrypto"},
	{"sqlite3_", "-lsqlite3"}, {"deflate", "-lz"}, {"inflate", "-lz"}, {"compress", "-lz"},
	{"uncompress", "-lz"}, {"crc32", "-lz"}, {"dlopen", "-ldl"}, {"dlsym", "-ldl"},
	{"initscr", "-lncurses"}, {"endwin", "-lncurses"}, {"readline", "-lreadline"},
	{"pcap_", "-lpcap"}, {"uuid_", "-luuid"}, {"json_object", "-ljson-c"}, {"yaml_", "-lyaml"},
	{"clock_gettime", "-lrt"}, {"shm_open", "-lrt"}, {"gmp", "-lgmp"}, {"__gmp", "-lgmp"},
	{"sqrt", "-lm"}, {"pow", "-lm"}, {"sin", "-lm"}, {"cos", "-lm"}, {"tan", "-lm"}, {"exp", "-lm"},
	{"log", "-lm"}, {"floor", "-lm"}, {"ceil", "-lm"}, {"fabs", "-lm"}, {"round", "-lm"},
	{"atan", "-lm"}, {"fmod", "-lm"}, {"hypot", "-lm"},
}

// pipPackages maps Python import names to the PyPI distribution that
// provides them, where the two differ.
var pipPackages = lazyValue[map[string]string]{make: func() map[string]string {
	return pairs(`
	yaml:pyyaml cv2:opencv-python PIL:pillow sklearn:scikit-learn bs4:beautifulsoup4
	skimage:scikit-image dateutil:python-dateutil dotenv:python-dotenv jwt:PyJWT Crypto:pycryptodome
	Cryptodome:pycryptodomex serial:pyserial usb:pyusb magic:python-magic docx:python-docx
	pptx:python-pptx gi:PyGObject OpenSSL:pyOpenSSL attr:attrs google.protobuf:protobuf fitz:PyMuPDF
	telegram:python-telegram-bot discord:discord.py MySQLdb:mysqlclient psycopg2:psycopg2-binary
	zmq:pyzmq win32api:pywin32 win32con:pywin32 Levenshtein:python-Levenshtein jose:python-jose
	multipart:python-multipart socks:PySocks slugify:python-slugify ldap:python-ldap nacl:PyNaCl
	git:GitPython websocket:websocket-client kafka:kafka-python pkg_resources:setuptools
	wx:wxPython OpenGL:PyOpenGL dns:dnspython faiss:faiss-cpu mpl_toolkits:matplotlib
	sentence_transformers:sentence-transformers umap:umap-learn pydantic_settings:pydantic-settings
	googleapiclient:google-api-python-client google.cloud.storage:google-cloud-storage
	google.generativeai:google-generativeai jinja2:Jinja2 markdown:Markdown Image:pillow
	lxml:lxml pymysql:PyMySQL MySQL:mysql-connector-python mysql:mysql-connector-python
	cairo:pycairo usb1:libusb1 Xlib:python-xlib xdg:pyxdg apt:python-apt
	ruamel:ruamel.yaml gflags:python-gflags tensorflow:tensorflow torch:torch
	sentencepiece:sentencepiece speech_recognition:SpeechRecognition pyaudio:PyAudio
	docopt:docopt keras:keras tkinter:tkinter distutils:setuptools imp:setuptools
	email_validator:email-validator grpc:grpcio snappy:python-snappy stripe:stripe
	flask_sqlalchemy:Flask-SQLAlchemy flask_cors:Flask-Cors flask_login:Flask-Login
	flask_wtf:Flask-WTF flask_migrate:Flask-Migrate rest_framework:djangorestframework
	corsheaders:django-cors-headers environ:django-environ OpenEXR:OpenEXR
	tree_sitter:tree-sitter llama_cpp:llama-cpp-python huggingface_hub:huggingface-hub
	igraph:igraph community:python-louvain Bio:biopython osgeo:GDAL
`)
}}

// aptPythonModules are modules that come from Debian, not from pip.
var aptPythonModules = lazyValue[map[string]string]{make: func() map[string]string {
	return pairs(`tkinter:python3-tk distutils:python3-setuptools venv:python3-venv
	ensurepip:python3-venv apt:python3-apt apt_pkg:python3-apt gi:python3-gi dbus:python3-dbus
	lib2to3:python3-lib2to3 pip:python3-pip`)
}}

// commonAptPackages are package names a mistyped apt install is likely to
// have meant, for when apt's own list is unavailable or slow.
var commonAptPackages = lazyValue[[]string]{make: func() []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, m := range []map[string]string{debianPackages.get(), headerPackages.get(), libPackages.get(), aptPythonModules.get()} {
		for _, p := range m {
			add(p)
		}
	}
	for _, p := range strings.Fields(`build-essential python3-venv python3-pip python3-dev python3-full
		python-is-python3 python3-setuptools python3-wheel python3-numpy python3-requests
		python3-yaml python3-tk software-properties-common ca-certificates gnupg apt-transport-https
		lsb-release net-tools iproute2 iputils-ping dnsutils openssh-server openssh-client
		nodejs npm default-jdk default-jre openjdk-17-jdk openjdk-17-jre maven golang-go rustc
		cargo docker.io docker-compose containerd nginx apache2 postgresql mariadb-server
		redis-server sqlite3 git curl wget vim neovim emacs nano htop tmux screen zsh fish
		ripgrep fd-find bat fzf jq tree unzip zip p7zip-full xz-utils zstd rsync locales
		sudo cron systemd procps psmisc less man-db manpages-dev gdb valgrind strace ltrace
		clang llvm lld cmake ninja-build meson pkg-config autoconf automake libtool gettext
		linux-headers-amd64 firmware-linux ffmpeg imagemagick libreoffice texlive pandoc
		shellcheck php ruby perl lua5.4 tcl tk gcc g++ make binutils libc6-dev`) {
		add(p)
	}
	return out
}}
