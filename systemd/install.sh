#!/usr/bin/env bash
# Install or update nardy-pi as a service on Raspberry Pi OS (bookworm or later).
# Safe to run again: every step checks what is already there. Run as root, from a checkout:
#   sudo systemd/install.sh            # install, or update after `git pull`
#   systemd/install.sh --dry-run       # print what would be done, change nothing
set -euo pipefail

APP_USER=nardy
PREFIX=/opt/nardy-pi
VENV="$PREFIX/venv"
STATE_DIR=/var/lib/nardy-pi
DEFAULTS_FILE=/etc/default/nardy-pi
UNIT_DEST=/etc/systemd/system/nardy-pi.service
AVAHI_DEST=/etc/avahi/services/nardy-pi.service
UDEV_DEST=/etc/udev/rules.d/99-nardy-strip.rules
GROUPS_NEEDED=(gpio video dialout)
# picamera2/libcamera only come from apt; the venv sees them through --system-site-packages.
APT_PACKAGES=(
  python3 python3-venv python3-pip
  python3-picamera2 python3-libcamera
  python3-gpiozero python3-lgpio
  avahi-daemon
)
# GNU Backgammon: the evaluation engine for the best-play hint and settling an abandoned
# game (gnubg-nn has no arm64 wheel, so on a Pi the program is the engine).
ENGINE_PACKAGES=(gnubg)

SOURCE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DRY_RUN=0
ENABLE=1
ENGINE=1
HOST_NAME=nardy

usage() {
  cat <<USAGE
Usage: install.sh [--dry-run] [--no-enable] [--no-engine] [--hostname NAME | --keep-hostname]
                  [--source DIR]

Installs nardy-pi from a source checkout as the systemd service "nardy-pi":
apt packages (incl. python3-picamera2, and gnubg unless --no-engine), user "$APP_USER" in ${GROUPS_NEEDED[*]},
a venv with system site packages in $VENV, the LED-strip udev rule, the unit, the avahi
service (http://NAME.local:8080/), then enables and (re)starts the service.

  --dry-run        print every change instead of making it
  --no-enable      install everything but do not enable or start the service
  --no-engine      do not install GNU Backgammon (apt gnubg), the engine behind the
                   best-play hint and settling an abandoned game
  --hostname NAME  host name to advertise as NAME.local (default: $HOST_NAME)
  --keep-hostname  leave the host name as it is
  --source DIR     source checkout to install (default: $SOURCE_DIR)
USAGE
}

die() {
  echo "install.sh: $*" >&2
  exit 2
}

note() {
  echo "==> $*"
}

# Run a command that changes the system, or only show it in dry-run mode.
run() {
  if [[ $DRY_RUN -eq 1 ]]; then
    printf '+ %s\n' "$*"
  else
    "$@"
  fi
}

parse_args() {
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --dry-run) DRY_RUN=1 ;;
      --no-enable) ENABLE=0 ;;
      --no-engine) ENGINE=0 ;;
      --keep-hostname) HOST_NAME="" ;;
      --hostname)
        [[ $# -ge 2 ]] || die "--hostname needs a name"
        HOST_NAME="$2"
        shift
        ;;
      --source)
        [[ $# -ge 2 ]] || die "--source needs a directory"
        SOURCE_DIR="$2"
        shift
        ;;
      -h | --help)
        usage
        exit 0
        ;;
      *) die "unknown option: $1 (see --help)" ;;
    esac
    shift
  done
  if [[ -n $HOST_NAME && ! $HOST_NAME =~ ^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$ ]]; then
    die "host name must be lowercase letters, digits and '-': $HOST_NAME"
  fi
  [[ -f "$SOURCE_DIR/pyproject.toml" ]] || die "no pyproject.toml in $SOURCE_DIR"
}

install_packages() {
  local packages=("${APT_PACKAGES[@]}")
  if [[ $ENGINE -eq 1 ]]; then
    packages+=("${ENGINE_PACKAGES[@]}")
  fi
  note "apt packages: ${packages[*]}"
  run apt-get update
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    "${packages[@]}"
}

create_user() {
  if id -u "$APP_USER" >/dev/null 2>&1; then
    note "user $APP_USER exists"
  else
    note "creating system user $APP_USER"
    run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
      --shell /usr/sbin/nologin "$APP_USER"
  fi
  local group
  for group in "${GROUPS_NEEDED[@]}"; do
    if ! getent group "$group" >/dev/null; then
      echo "warning: group $group does not exist here (not a Raspberry Pi?); skipped" >&2
    elif id -nG "$APP_USER" 2>/dev/null | tr ' ' '\n' | grep -qx "$group"; then
      note "$APP_USER is in $group"
    else
      run usermod -aG "$group" "$APP_USER"
    fi
  done
  run install -d -o "$APP_USER" -g "$APP_USER" -m 0750 "$STATE_DIR"
}

install_venv() {
  if [[ -x "$VENV/bin/python" ]]; then
    note "venv $VENV exists"
  else
    note "creating venv $VENV (with system site packages, for picamera2)"
    run install -d -m 0755 "$PREFIX"
    run python3 -m venv --system-site-packages "$VENV"
  fi
  note "installing nardy-pi from $SOURCE_DIR"
  run "$VENV/bin/pip" install --upgrade --no-warn-script-location "$SOURCE_DIR"
}

install_udev_rule() {
  local rule="$SOURCE_DIR/hardware/99-nardy-strip.rules"
  if [[ ! -f $rule ]]; then
    echo "warning: $rule not found; the LED strip keeps its default device name" >&2
    return 0
  fi
  note "udev rule for the LED strip"
  run install -m 0644 "$rule" "$UDEV_DEST"
  run udevadm control --reload-rules
  run udevadm trigger --subsystem-match=tty
}

install_service_files() {
  note "systemd unit and avahi service"
  run install -m 0644 "$SOURCE_DIR/systemd/nardy-pi.service" "$UNIT_DEST"
  run install -d -m 0755 "$(dirname "$AVAHI_DEST")"
  run install -m 0644 "$SOURCE_DIR/systemd/avahi-nardy-pi.service" "$AVAHI_DEST"
  if [[ ! -e $DEFAULTS_FILE ]]; then
    note "default options in $DEFAULTS_FILE"
    if [[ $DRY_RUN -eq 1 ]]; then
      printf '+ write %s\n' "$DEFAULTS_FILE"
    else
      printf '# Extra options for nardy-pi run, e.g. --port 8080\nNARDY_PI_ARGS=""\n' \
        >"$DEFAULTS_FILE"
    fi
  fi
  run systemctl daemon-reload
}

set_host_name() {
  [[ -n $HOST_NAME ]] || return 0
  if [[ "$(hostname)" == "$HOST_NAME" ]]; then
    note "host name is $HOST_NAME"
    return 0
  fi
  note "host name $HOST_NAME (the page becomes http://$HOST_NAME.local:8080/)"
  run hostnamectl set-hostname "$HOST_NAME"
  if grep -q '^127\.0\.1\.1' /etc/hosts; then
    run sed -i "s/^127\.0\.1\.1.*/127.0.1.1\t$HOST_NAME/" /etc/hosts
  else
    run sh -c "printf '127.0.1.1\t%s\n' '$HOST_NAME' >> /etc/hosts"
  fi
}

start_services() {
  run systemctl enable avahi-daemon.service
  run systemctl restart avahi-daemon.service
  if [[ $ENABLE -eq 1 ]]; then
    run systemctl enable nardy-pi.service
    # restart, not start: a rerun after an update must load the new code.
    run systemctl restart nardy-pi.service
  else
    note "service installed but not enabled (--no-enable)"
  fi
}

main() {
  parse_args "$@"
  if [[ $DRY_RUN -eq 0 && $EUID -ne 0 ]]; then
    die "run as root (sudo), or use --dry-run"
  fi
  [[ $DRY_RUN -eq 1 ]] && note "dry run: nothing will be changed"
  install_packages
  create_user
  install_venv
  install_udev_rule
  install_service_files
  set_host_name
  start_services
  note "done"
}

main "$@"
