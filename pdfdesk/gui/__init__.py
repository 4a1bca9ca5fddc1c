"""The Qt front end; the only package that imports Qt: issue 5."""
