-- Headless Neovim for tests/test_neovim.py: start auditex through the built-in
-- LSP client, wait for diagnostics on the opened file, write them as JSON, quit.
local python = vim.env.AUDITEX_PYTHON
local root = vim.env.AUDITEX_ROOT
local output = vim.env.AUDITEX_OUTPUT

vim.api.nvim_create_autocmd("BufReadPost", {
  pattern = { "*.tex", "*.bib" },
  callback = function(args)
    local config = { name = "auditex", cmd = { python, "-m", "auditex.cli.main", "serve" }, root_dir = root }
    if vim.lsp.start then -- Neovim 0.8+
      vim.lsp.start(config, { bufnr = args.buf })
    else -- Debian bookworm ships 0.7
      vim.lsp.buf_attach_client(args.buf, vim.lsp.start_client(config))
    end
  end,
})

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
