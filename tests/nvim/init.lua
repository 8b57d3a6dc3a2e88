-- Headless Neovim for tests/test_neovim.py, after the README's configuration (which starts auditex
-- through the built-in LSP client): wait for diagnostics on the opened file, write them as JSON, quit.
local output = vim.env.AUDITEX_OUTPUT

local function finish(diagnostics)
  local rows = {}
  for _, d in ipairs(diagnostics) do
    table.insert(rows, { code = d.code, source = d.source, lnum = d.lnum, col = d.col, message = d.message, severity = d.severity })
  end
  local file = assert(io.open(output, "w"))
  file:write(vim.json.encode(rows))
  file:close()
  vim.cmd("qall!")
end

local waited = 0
local timer = vim.uv or vim.loop
local ticker = timer.new_timer()
ticker:start(200, 200, vim.schedule_wrap(function()
  waited = waited + 200
  local diagnostics = vim.diagnostic.get(0)
  if #diagnostics > 0 or waited > 60000 then
    ticker:stop()
    finish(diagnostics)
  end
end))
