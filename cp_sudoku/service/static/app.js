placeholder app.js
