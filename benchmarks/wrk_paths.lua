-- wrk script for benchmarks/load.py: GET the paths of a file (one per line) in
-- turn, each thread from its own starting point, and print the figures as one
-- JSON line at the end. Usage: wrk -s wrk_paths.lua URL -- PATHS_FILE
local paths = {}
local next_path = 1

function init(args)
  for line in io.lines(args[1]) do
    if line ~= "" then paths[#paths + 1] = line end
  end
  math.randomseed(os.time() + math.floor(os.clock() * 1e6))
  next_path = math.random(#paths)
end

function request()
  next_path = next_path % #paths + 1
  return wrk.format("GET", paths[next_path])
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests": %d, "duration_us": %d, "connect": %d, "read": %d, "write": %d, ' ..
    '"status": %d, "timeout": %d, "p50_us": %d, "p90_us": %d, "p99_us": %d, "max_us": %d}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
