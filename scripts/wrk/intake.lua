-- wrk script for `npm run bench:landing`: posts leads with unique phone numbers for
-- RUN_SECONDS, then stops sending and lets every request in flight be answered, so the
-- answers counted here can be compared with the rows stored.
-- Environment: TOKEN (the form's _t), PREFIX (4 digits, e.g. 0109), RUN_SECONDS.
local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_usec; } lr_timeval;
  int gettimeofday(lr_timeval *tv, void *tz);
]]
local tv = ffi.new("lr_timeval")
local function now()
  ffi.C.gettimeofday(tv, nil)
  return tonumber(tv.tv_sec) + tonumber(tv.tv_usec) / 1e6
end

local token = os.getenv("TOKEN") or ""
local prefix = os.getenv("PREFIX") or "0109"
local runSeconds = tonumber(os.getenv("RUN_SECONDS") or "10")
local threads = {}
local nextId = 0

function setup(thread)
  thread:set("tid", nextId)
  nextId = nextId + 1
  table.insert(threads, thread)
end

function init(args)
  sent, ok, other, started, finished = 0, 0, 0, 0, 0
  statuses = {}
end

function delay()
  if now() - started >= runSeconds then return 3600000 end -- stop sending: wait out the run
  return 0
end

function request()
  if started == 0 then started = now() end
  sent = sent + 1
  local phone = string.format("%s%d%06d", prefix, tid, sent)
  local body = '{"shopCode":"smile-dental","landingCode":"implant-event","name":"부하시험","phone":"' .. phone ..
    '","privacyConsent":true,"treatment":"임플란트","utm_source":"bench","_t":"' .. token .. '"}'
  return wrk.format("POST", "/api/public/leads", { ["content-type"] = "application/json" }, body)
end

function response(status, headers, body)
  finished = now()
  if status >= 200 and status < 300 then ok = ok + 1 else other = other + 1 end
  local key = tostring(status)
  statuses[key] = (statuses[key] or 0) + 1
end

function done(summary, latency, requests)
  local t = { sent = 0, ok = 0, other = 0, started = math.huge, finished = 0, statuses = {} }
  for _, thread in ipairs(threads) do
    t.sent = t.sent + thread:get("sent")
    t.ok = t.ok + thread:get("ok")
    t.other = t.other + thread:get("other")
    t.started = math.min(t.started, thread:get("started"))
    t.finished = math.max(t.finished, thread:get("finished"))
    for k, v in pairs(thread:get("statuses")) do t.statuses[k] = (t.statuses[k] or 0) + v end
  end
  local codes = {}
  for k, v in pairs(t.statuses) do table.insert(codes, string.format('"%s":%d', k, v)) end
  io.write(string.format(
    'WRK_RESULT {"sent":%d,"ok":%d,"other":%d,"seconds":%.3f,"p50":%.3f,"p99":%.3f,"max":%.3f,"socketErrors":%d,"statuses":{%s}}\n',
    t.sent, t.ok, t.other, t.finished - t.started, latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write, table.concat(codes, ",")))
end
