"""Team mode: one PostgreSQL database several reviewers share (notes, matters, the library).

Only connecting, the schema and its migrations, matters and access, and change notifications live
here, below both the index and the review packages that keep their data in it. Who may see and
write what is decided by the database itself (its roles and row-level security), so every client
of the database, pdfdesk or not, is held to the same rules.
"""
