# Helpers of the benchmark scripts that start services: sourced from the repository root.

# A TCP port on 127.0.0.1 that was free a moment ago.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# wait_serving HEALTHCHECK ADDR [SERVICE] [SECONDS]: polls the gRPC health check of the server
# at ADDR (for SERVICE, default the server as a whole) with the healthcheck binary until it
# answers SERVING, for up to SECONDS (default 10); returns 1 if it never does.
wait_serving() {
  local check=$1 addr=$2 service=${3:-} tries=$((${4:-10} * 10)) i
  for ((i = 0; i < tries; i++)); do
    "$check" --addr="$addr" ${service:+"--service=$service"} >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  return 1
}
